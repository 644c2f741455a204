import {
  ANIMATION_CACHE_CLEANUP_MS,
  ANIMATION_MAX_WORKERS,
  ANIMATION_REQUEST_TIMEOUT_MS,
  ANIMATION_RESPONSE_TIMES_KEPT,
} from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { createAvatarAnimator } from './animator';
import { computeFrame } from './compute';
import type { FramePool, FrameResult, FrameState } from './frame';
import { createAnimationPool, type WorkerLike } from './pool';
import { createWorkerCore, type WorkerMessage } from './worker-core';
import { buildRig, READY_PLAYER_ME_MORPHS } from './testing/rigs';

/*
 * jsdom and Node have no DOM Worker, so the worker is faked at that boundary only (a test
 * double of `WorkerLike`): it runs the real worker code (worker-core.ts), or fails the way a
 * worker can fail (throws, answers an error, never answers). The pool's logic under test is real. The benchmark
 * runs the same pool over real worker_threads.
 */
type Mode = 'ok' | 'throw' | 'error-response' | 'silent';

class FakeWorker implements WorkerLike {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  terminated = false;
  received = 0;
  /** The real worker code (worker-core.ts) behind the fake transport. */
  readonly core: ReturnType<typeof createWorkerCore>;
  constructor(
    public mode: Mode,
    private readonly clock: { ms: number },
    private readonly latencyMs = 2,
  ) {
    this.core = createWorkerCore(() => this.clock.ms);
  }
  postMessage(message: unknown): void {
    const request = message as WorkerMessage;
    if ('release' in request) return;
    this.received += 1;
    queueMicrotask(() => {
      if (this.terminated) return;
      if (this.mode === 'throw') {
        this.onerror?.(new Error('worker crashed'));
        return;
      }
      if (this.mode === 'silent') return;
      this.clock.ms += this.latencyMs;
      const data =
        this.mode === 'error-response' ? { id: request.id, error: 'boom' } : this.core.handle(request);
      this.onmessage?.({ data });
    });
  }
  terminate(): void {
    this.terminated = true;
  }
}

function fakeTimers() {
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock = { ms: 0 };
  return {
    clock,
    now: () => clock.ms,
    setTimer: (fn: () => void, ms: number) => {
      const id = nextId++;
      timers.push({ at: clock.ms + ms, fn, id });
      return id;
    },
    clearTimer: (id: unknown) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
    /** Moves the clock and fires the timers due. */
    advance(ms: number) {
      clock.ms += ms;
      for (const t of [...timers].sort((a, b) => a.at - b.at)) {
        if (t.at > clock.ms) continue;
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    },
  };
}

function frameState(): FrameState {
  const animator = createAvatarAnimator(buildRig({ morphs: READY_PLAYER_ME_MORPHS }).root, {
    pool: null,
    seed: 5,
  });
  animator.update(0);
  return animator.snapshot();
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('animation worker pool (spec §9)', () => {
  it('computes in a worker and keeps the last 100 response times', async () => {
    const timers = fakeTimers();
    const workers: FakeWorker[] = [];
    const pool = createAnimationPool({
      createWorker: () => {
        const w = new FakeWorker('ok', timers.clock, 3);
        workers.push(w);
        return w;
      },
      size: 2,
      now: timers.now,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    const state = frameState();
    expect(await pool.compute('a', state, 1234)).toEqual(computeFrame(state, 1234));
    for (let i = 0; i < 149; i++) await pool.compute('a', state, i * 16);
    const stats = pool.stats;
    expect(stats.requests).toBe(150);
    expect(stats.fallbacks).toBe(0);
    expect(stats.responseTimesMs).toHaveLength(ANIMATION_RESPONSE_TIMES_KEPT);
    expect(stats.averageMs).toBe(3);
    expect(workers.reduce((n, w) => n + w.received, 0)).toBe(150);
    pool.dispose();
  });

  it("sends each avatar's rig to a worker once, and again after the worker forgot it", async () => {
    const timers = fakeTimers();
    const sent: WorkerMessage[] = [];
    let worker: FakeWorker | null = null;
    const pool = createAnimationPool({
      createWorker: () => {
        worker = new FakeWorker('ok', timers.clock);
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (m) => {
          sent.push(m as WorkerMessage);
          post(m);
        };
        return worker;
      },
      size: 1,
      now: timers.now,
    });
    const state = frameState();
    await pool.compute('a', state, 1);
    await pool.compute('a', state, 2);
    expect(sent.map((m) => 'rig' in m && m.rig !== undefined)).toEqual([true, false]);
    // The worker drops rigs unused for 5 minutes; the pool resends on its answer.
    timers.clock.ms += ANIMATION_CACHE_CLEANUP_MS + 1;
    const w = worker as FakeWorker | null;
    w?.core.handle({ id: -1, key: 'other', rig: state.rig, state, tMs: 0 });
    expect(w?.core.size).toBe(1);
    expect(await pool.compute('a', state, 3)).toEqual(computeFrame(state, 3));
    expect(pool.stats.fallbacks).toBe(1);
    await pool.compute('a', state, 4);
    expect(sent.at(-1)).toMatchObject({ key: 'a', rig: state.rig });
    expect(pool.stats.errors).toBe(0);
    pool.dispose();
  });

  it('falls back to in-page computation when the worker throws, and replaces it', async () => {
    const timers = fakeTimers();
    const workers: FakeWorker[] = [];
    const pool = createAnimationPool({
      createWorker: () => {
        const w = new FakeWorker(workers.length === 0 ? 'throw' : 'ok', timers.clock);
        workers.push(w);
        return w;
      },
      size: 1,
      now: timers.now,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    const state = frameState();
    expect(await pool.compute('a', state, 500)).toEqual(computeFrame(state, 500));
    expect(pool.stats).toMatchObject({ errors: 1, fallbacks: 1 });
    expect(workers[0]?.terminated).toBe(true);
    await pool.compute('a', state, 600);
    expect(workers).toHaveLength(2);
    expect(pool.stats.responseTimesMs).toHaveLength(1);
    pool.dispose();
  });

  it('falls back when a worker answers with an error', async () => {
    const timers = fakeTimers();
    const pool = createAnimationPool({
      createWorker: () => new FakeWorker('error-response', timers.clock),
      size: 1,
      now: timers.now,
    });
    const state = frameState();
    expect(await pool.compute('a', state, 700)).toEqual(computeFrame(state, 700));
    expect(pool.stats.fallbacks).toBe(1);
    pool.dispose();
  });

  it(`falls back when a worker does not answer within ${ANIMATION_REQUEST_TIMEOUT_MS} ms`, async () => {
    const timers = fakeTimers();
    const worker = new FakeWorker('silent', timers.clock);
    const pool = createAnimationPool({
      createWorker: () => worker,
      size: 1,
      now: timers.now,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    const state = frameState();
    let result: unknown = null;
    void pool.compute('a', state, 900).then((f) => (result = f));
    await flush();
    timers.advance(ANIMATION_REQUEST_TIMEOUT_MS - 1);
    await flush();
    expect(result).toBeNull();
    timers.advance(1);
    await flush();
    expect(result).toEqual(computeFrame(state, 900));
    expect(pool.stats).toMatchObject({ timeouts: 1, fallbacks: 1 });
    expect(worker.terminated).toBe(true);
    pool.dispose();
  });

  it('computes in the page when workers cannot be created', async () => {
    const pool = createAnimationPool({
      createWorker: () => {
        throw new Error('Worker is not defined');
      },
    });
    const state = frameState();
    expect(await pool.compute('a', state, 100)).toEqual(computeFrame(state, 100));
    expect(pool.stats).toMatchObject({ workers: 0, fallbacks: 1 });
    pool.dispose();
  });

  it(`runs at most ${ANIMATION_MAX_WORKERS} workers`, async () => {
    const timers = fakeTimers();
    let created = 0;
    const pool = createAnimationPool({
      createWorker: () => {
        created += 1;
        return new FakeWorker('ok', timers.clock);
      },
      size: 20,
      now: timers.now,
    });
    const state = frameState();
    await Promise.all(Array.from({ length: 30 }, (_, i) => pool.compute(`avatar-${i}`, state, i)));
    expect(created).toBe(ANIMATION_MAX_WORKERS);
    pool.dispose();
  });

  it(`drops cached frames unused for ${ANIMATION_CACHE_CLEANUP_MS / 60000} minutes on its cleanup timer`, async () => {
    const timers = fakeTimers();
    let tick: (() => void) | null = null;
    const pool = createAnimationPool({
      createWorker: null,
      now: timers.now,
      setInterval: (fn, ms) => {
        expect(ms).toBe(ANIMATION_CACHE_CLEANUP_MS);
        tick = fn;
        return 1;
      },
      clearInterval: () => undefined,
    });
    const state = frameState();
    await pool.compute('old', state, 0);
    timers.clock.ms = ANIMATION_CACHE_CLEANUP_MS - 1000;
    await pool.compute('recent', state, 0);
    timers.clock.ms = ANIMATION_CACHE_CLEANUP_MS + 1;
    expect(pool.stats.cachedAvatars).toBe(2);
    (tick as (() => void) | null)?.();
    expect(pool.latest('old')).toBeNull();
    expect(pool.latest('recent')).not.toBeNull();
    pool.dispose();
  });

  it('an animator with a pool applies the frames the pool computes', async () => {
    const timers = fakeTimers();
    const worker = new FakeWorker('ok', timers.clock);
    const pool = createAnimationPool({ createWorker: () => worker, size: 1, now: timers.now });
    const answers: FrameResult[] = [];
    const spy: FramePool = {
      compute: (key, state, tMs) =>
        pool.compute(key, state, tMs).then((frame) => {
          answers.push(frame);
          return frame;
        }),
    };
    const { root, mesh } = buildRig({ morphs: READY_PLAYER_ME_MORPHS });
    const animator = createAvatarAnimator(root, { pool: spy, seed: 5 });
    animator.setOverrides({ viseme: 'aa' });
    // The first frame is computed in the page (no bind-pose flash) while the worker gets a request.
    animator.update(0);
    expect(animator.lastFrame?.morphs.viseme_aa).toBe(1);
    expect(worker.received).toBe(1);
    for (const t of [20, 40, 60]) {
      await flush();
      animator.update(t);
    }
    // One request per frame; frame 60 shows the worker's answer for frame 40 (a frame behind).
    expect(worker.received).toBe(4);
    expect(answers).toHaveLength(3);
    expect(animator.lastFrame).toBe(answers[2]);
    const index = mesh?.morphTargetDictionary?.viseme_aa ?? -1;
    expect(mesh?.morphTargetInfluences?.[index]).toBe(1);
    animator.dispose();
    pool.dispose();
  });

  it('an animator never freezes while its worker is slow: overdue frames are computed in the page', async () => {
    const timers = fakeTimers();
    const pool = createAnimationPool({
      createWorker: () => new FakeWorker('silent', timers.clock),
      size: 1,
      now: timers.now,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
    });
    const animator = createAvatarAnimator(buildRig().root, { pool, seed: 5 });
    const frames = new Set<unknown>();
    for (let t = 0; t <= 500; t += 1000 / 60) {
      animator.update(t);
      frames.add(animator.lastFrame);
      await flush();
    }
    // Two frames wait for the worker; after that every frame is computed in the page.
    expect(frames.size).toBeGreaterThan(25);
    expect(pool.stats.responseTimesMs).toHaveLength(0);
    animator.dispose();
    pool.dispose();
  });
});
