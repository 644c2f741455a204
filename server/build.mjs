// Bundles the server (and the protocol package it imports as TypeScript source) into one ESM file,
// plus the worker threads it starts (avatar processing, avatar forge, portraits, speech, voice analysis, the embedded store’s reader and checkpoints; src/lib/worker-thread.ts).
// Dependencies stay external: they are installed beside it.
import { build } from 'esbuild';

await build({
  entryPoints: {
    server: 'src/server.ts',
    'avatar-worker': 'src/avatars/processing/worker.ts',
    'forge-worker': 'src/avatars/forge/worker.ts',
    'portrait-worker': 'src/avatars/portrait/worker.ts',
    'speech-worker': 'src/engines/speech/speech-worker.ts',
    'reader-worker': 'src/storage/embedded/reader-worker.ts',
    'checkpoint-worker': 'src/storage/embedded/checkpoint-worker.ts',
    'voice-analysis-worker': 'src/modules/voice-uploads/analysis-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // Dependencies stay external (installed beside the bundle); the workspace's own packages
  // (@alma/protocol, consumed as TypeScript source) are bundled in.
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@alma/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'info',
});
