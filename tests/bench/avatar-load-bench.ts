/**
 * Avatar load benchmark (part of `npm run bench`; alone: `tsx tests/bench/avatar-load-bench.ts`).
 *
 * Per system character: the model's download from a running server (baseline: bytes over HTTP
 * from the disk cache), then what the client does before the first frame — glTF parse with the
 * meshopt decoder (three.js GLTFLoader, the viewer's loader) and the animator's set-up plus its
 * first update — in one run and one process. Medians of BENCH_RUNS (default 5); the ratio
 * (parse + first frame) / download is printed; no thresholds. The first request forges each
 * model (worker thread); that time is printed too.
 */
import { SYSTEM_AVATAR_IDS } from '@alma/protocol';
import { mkdirSync, writeFileSync } from 'node:fs';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { createAvatarAnimator } from '../../client/src/features/avatar/engine/index.ts';
import { startTestServer } from '../fixtures/server.ts';

const RUNS = Number(process.env.BENCH_RUNS) || 5;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
const ms = (n: number) => Math.round(n * 10) / 10;

const server = await startTestServer();
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
const rows = [];
try {
  for (const id of SYSTEM_AVATAR_IDS) {
    const url = `${server.url}/models/${id}.glb`;
    const t0 = performance.now();
    await (await fetch(url)).arrayBuffer();
    const forgeMs = performance.now() - t0;
    const download: number[] = [];
    const parse: number[] = [];
    const firstFrame: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS; run++) {
      const a = performance.now();
      const buffer = await (await fetch(url)).arrayBuffer();
      const b = performance.now();
      const gltf = await loader.parseAsync(buffer, '');
      const c = performance.now();
      const animator = createAvatarAnimator(gltf.scene, { pool: null });
      animator.update(0);
      const d = performance.now();
      animator.dispose();
      bytes = buffer.byteLength;
      download.push(b - a);
      parse.push(c - b);
      firstFrame.push(d - c);
    }
    const row = {
      id,
      kb: Math.round(bytes / 1024),
      forgeMs: ms(forgeMs),
      downloadMs: ms(median(download)),
      parseMs: ms(median(parse)),
      firstFrameMs: ms(median(firstFrame)),
      ratio: ms((median(parse) + median(firstFrame)) / Math.max(median(download), 0.01)),
    };
    rows.push(row);
    console.log(
      `${id.padEnd(10)} ${String(row.kb).padStart(4)} KB  first request (forge) ${row.forgeMs} ms  ` +
        `download ${row.downloadMs} ms  parse ${row.parseMs} ms  animator + first frame ${row.firstFrameMs} ms  ` +
        `(parse + first frame) / download ${row.ratio}×`,
    );
  }
} finally {
  await server.dispose();
}
const dir = new URL('./results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('avatar-load-latest.json', dir), `${JSON.stringify({ runs: RUNS, rows }, null, 2)}\n`);
