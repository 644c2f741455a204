/**
 * Avatar engine benchmark (part of `npm run bench`; alone: `tsx tests/bench/avatar-bench.ts`).
 *
 * Engine cost per frame per avatar, in µs, for 1, 4 and 8 avatars, in one run and one process:
 *  - baseline: an empty frame loop over the same avatars (the loop and timer cost);
 *  - main thread: `animator.update` with the pool off — computeFrame + applying bones and morphs
 *    to the three.js objects (what a page without workers pays);
 *  - of which computeFrame alone (the pure core);
 *  - worker: computeFrame timed inside a worker_threads worker (the stand-in for the browser's
 *    module worker), plus what the main thread still pays with the pool on (state copy, post,
 *    apply) and the pool's mean round trip.
 * Models: Ready Player Me-style rigs (68 bones with fingers, 15 visemes + ARKit shapes), speaking
 * with an emotion and a gesture. Ratios against the baseline are printed; no thresholds.
 * Environment: BENCH_FRAMES (per level, default 600), BENCH_LEVELS (default "1,4,8").
 */
import { ANIMATION_MAX_WORKERS } from '@alma/protocol';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  computeFrame,
  createAnimationPool,
  createAvatarAnimator,
  type AnimationPool,
  type FullAvatarAnimator,
  type WorkerLike,
} from '../../client/src/features/avatar/engine/index.ts';
import { buildRig, READY_PLAYER_ME_MORPHS } from '../../client/src/features/avatar/engine/testing/rigs.ts';

const FRAMES = Number(process.env.BENCH_FRAMES) || 600;
const LEVELS = (process.env.BENCH_LEVELS ?? '1,4,8')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const FRAME_MS = 1000 / 60;
const WARMUP_FRAMES = 120;

const WORKER_FILE = fileURLToPath(new URL('./avatar-bench-worker.ts', import.meta.url));
/** tsx's ESM hooks do not reach worker threads on Node 20: the worker registers them itself. */
const WORKER_BOOT = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(WORKER_FILE)}, __filename));`;

/**
 * A worker_threads Worker behind the pool's WorkerLike, collecting the in-worker compute times.
 * Resolves once the worker has loaded (it answers a ping), so start-up is not measured.
 */
async function nodeWorker(computeUs: number[]): Promise<WorkerLike> {
  const worker = new Worker(WORKER_BOOT, { eval: true });
  const like: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage: (message) => worker.postMessage(message),
    terminate: () => void worker.terminate(),
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => worker.postMessage({ id: 0, state: null, tMs: 0 }), 200);
    worker.once('message', () => {
      clearInterval(timer);
      resolve();
    });
    worker.once('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
  });
  worker.on('message', (data: { id: number; computeUs?: number }) => {
    if (data.id === 0) return;
    if (typeof data.computeUs === 'number') computeUs.push(data.computeUs);
    like.onmessage?.({ data });
  });
  worker.on('error', (error) => like.onerror?.(error));
  return like;
}

function avatars(count: number, pool: AnimationPool | null): FullAvatarAnimator[] {
  return Array.from({ length: count }, (_, i) => {
    const { root } = buildRig({ morphs: READY_PLAYER_ME_MORPHS, fingers: true });
    const animator = createAvatarAnimator(root, { pool, seed: i + 1 });
    let n = 0;
    animator.setMouthSource({
      getMouthState: () => ({
        viseme: ['aa', 'PP', 'E', 'O', 'SS'][Math.floor(n++ / 6) % 5] ?? 'sil',
        weight: 0.8,
      }),
    });
    animator.update(0);
    animator.setSpeaking(true);
    animator.setEmotion('happy', 0.8);
    animator.playGesture('greeting', 60_000);
    return animator;
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const round = (v: number) => Math.round(v * 100) / 100;
const nextTick = () => new Promise<void>((r) => setImmediate(r));

/** Median µs per frame per avatar of `step` over FRAMES frames (after a warm-up). */
function perFrame(count: number, step: (t: number) => void): number {
  const samples: number[] = [];
  for (let f = 0; f < WARMUP_FRAMES + FRAMES; f++) {
    const t = 1000 + f * FRAME_MS;
    const started = performance.now();
    step(t);
    const us = ((performance.now() - started) * 1000) / count;
    if (f >= WARMUP_FRAMES) samples.push(us);
  }
  return median(samples);
}

interface Level {
  avatars: number;
  baselineUs: number;
  mainThreadUs: number;
  computeFrameUs: number;
  applyUs: number;
  workerComputeUs: number;
  mainThreadWithPoolUs: number;
  poolRoundTripMs: number;
  workers: number;
  ratioMainToBaseline: number;
  ratioMainToWithPool: number;
}

async function measure(count: number): Promise<Level> {
  // Baseline: the same loop shape, doing nothing per avatar.
  const sink = { n: 0 };
  const noop = Array.from({ length: count }, () => (t: number) => {
    sink.n += t > 0 ? 1 : 0;
  });
  const baselineUs = perFrame(count, (t) => {
    for (const f of noop) f(t);
  });

  const local = avatars(count, null);
  const mainThreadUs = perFrame(count, (t) => {
    for (const a of local) a.update(t);
  });
  const states = local.map((a) => a.snapshot());
  const computeFrameUs = perFrame(count, (t) => {
    for (const s of states) computeFrame(s, t);
  });
  for (const a of local) a.dispose();

  // Worker: each frame the animators post their state and apply the latest answer; the loop
  // yields between frames so answers arrive, as they would between two rendered frames.
  const computeUs: number[] = [];
  const size = Math.min(ANIMATION_MAX_WORKERS, count);
  const ready = await Promise.all(Array.from({ length: size }, () => nodeWorker(computeUs)));
  const pool = createAnimationPool({ size, createWorker: () => ready.shift() ?? null });
  const remote = avatars(count, pool);
  const mainSamples: number[] = [];
  for (let f = 0; f < WARMUP_FRAMES + FRAMES; f++) {
    const t = 1000 + f * FRAME_MS;
    const started = performance.now();
    for (const a of remote) a.update(t);
    if (f >= WARMUP_FRAMES) mainSamples.push(((performance.now() - started) * 1000) / count);
    await nextTick();
    await new Promise((r) => setTimeout(r, 1));
  }
  const stats = pool.stats;
  for (const a of remote) a.dispose();
  pool.dispose();
  const workerComputeUs = median(computeUs.slice(Math.min(computeUs.length - 1, WARMUP_FRAMES * count)));
  const mainThreadWithPoolUs = median(mainSamples);
  return {
    avatars: count,
    baselineUs: round(baselineUs),
    mainThreadUs: round(mainThreadUs),
    computeFrameUs: round(computeFrameUs),
    applyUs: round(Math.max(0, mainThreadUs - computeFrameUs)),
    workerComputeUs: round(workerComputeUs),
    mainThreadWithPoolUs: round(mainThreadWithPoolUs),
    poolRoundTripMs: round(stats.averageMs),
    workers: stats.workers,
    ratioMainToBaseline: round(mainThreadUs / Math.max(baselineUs, 1e-3)),
    ratioMainToWithPool: round(mainThreadUs / Math.max(mainThreadWithPoolUs, 1e-3)),
  };
}

const levels: Level[] = [];
for (const count of LEVELS) levels.push(await measure(count));

const result = { frames: FRAMES, cpus: cpus().length, levels };
console.info(
  `avatar engine: µs per frame per avatar (median of ${FRAMES} frames, ${cpus().length} CPUs)\n` +
    '  avatars  baseline  main(compute+apply)  computeFrame  apply  in-worker compute  main w/ pool  round trip  main/baseline  main/(main w/ pool)\n' +
    levels
      .map(
        (l) =>
          `  ${String(l.avatars).padStart(7)}  ${String(l.baselineUs).padStart(8)}  ${String(l.mainThreadUs).padStart(19)}  ${String(l.computeFrameUs).padStart(12)}  ${String(l.applyUs).padStart(5)}  ${String(l.workerComputeUs).padStart(17)}  ${String(l.mainThreadWithPoolUs).padStart(12)}  ${`${l.poolRoundTripMs} ms`.padStart(10)}  ${`${l.ratioMainToBaseline}×`.padStart(13)}  ${`${l.ratioMainToWithPool}×`.padStart(19)}`,
      )
      .join('\n'),
);
const dir = new URL('./results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(new URL('avatar-latest.json', dir), `${JSON.stringify(result, null, 2)}\n`);
