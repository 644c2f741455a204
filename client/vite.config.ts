import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { localeParts } from './locale-parts.ts';

/** The server (REST + socket.io) runs on :3000 and serves the built client; in dev Vite proxies to it. */
const SERVER = 'http://localhost:3000';

/**
 * `/chat` and `/auth/callback` are both API prefixes and app pages: a page load (the browser asks
 * for HTML) gets the app, a fetch gets the server.
 */
const api = {
  target: SERVER,
  bypass: (req: { headers: Record<string, string | string[] | undefined> }) => {
    const accept = req.headers.accept;
    return typeof accept === 'string' && accept.includes('text/html') ? '/index.html' : undefined;
  },
};

/** What the server sends compressed: text assets worth compressing. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|wasm|txt)$/;

/**
 * Brotli (quality 11) and gzip (level 9) copies of every compressible file beside it, once at
 * build time; the server's static handler picks one by Accept-Encoding (plugins/client.ts).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'alma:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir).flatMap((name) => {
            const path = join(dir, name);
            return statSync(path).isDirectory() ? walk(path) : [path];
          });
        for (const file of walk(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const data = readFileSync(file);
          if (data.length < 1024) continue;
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(data, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 11,
                [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        }
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), localeParts(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/auth': api,
      '/api': api,
      '/chat': api,
      '/message': api,
      '/health': api,
      // The 3D models (ARCHITECTURE §6): system avatars and the default model.
      '/models': SERVER,
      '/model.glb': SERVER,
      // Their portraits for the avatar picker (SPEC.md AV-7).
      '/portraits': SERVER,
      '/socket.io': { target: SERVER, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // tests/bench/bundle-size.ts walks it to measure what each route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // three.js and react-three-fiber: one chunk named for what it is, loaded only by the
            // screens that show a 3D view. Without their dependencies (React), which the first
            // screen needs on its own.
            {
              includeDependenciesRecursively: false,
              name: 'three',
              test: /[\\/]node_modules[\\/](\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(three|@react-three)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
