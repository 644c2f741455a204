/**
 * The worker pool (spec §9): up to 8 workers run `computeFrame`; a request that fails or takes
 * longer than 1 s is computed in the page instead. Keeps the last 100 response times and the
 * latest frame per avatar (cleaned every 5 minutes). Workers are created through `createWorker`,
 * so tests and Node benchmarks pass their own (a real `worker_threads` worker, or a fake at this
 * boundary only).
 */
import {
  ANIMATION_CACHE_CLEANUP_MS,
  ANIMATION_MAX_WORKERS,
  ANIMATION_REQUEST_TIMEOUT_MS,
  ANIMATION_RESPONSE_TIMES_KEPT,
} from '@alma/protocol';
import { computeFrame } from './compute';
import type { FramePool, FrameResult, FrameState } from './frame';

/** What the pool needs of a Worker (the DOM Worker and a wrapped worker_threads Worker fit). */
export interface WorkerLike {
  postMessage(message: unknown): void;
  terminate(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/**
 * One frame to compute. The rig profile is static, so it crosses once per avatar and worker:
 * `rig` is sent with the first request of `key` (and again if the worker forgot it); the worker
 * keeps it, and drops rigs unused for ANIMATION_CACHE_CLEANUP_MS.
 */
export interface FrameRequest {
  id: number;
  key: string;
  state: Omit<FrameState, 'rig'>;
  rig?: FrameState['rig'];
  tMs: number;
}

/** The worker's answer when it no longer has the rig of `key`: the pool resends it. */
export const UNKNOWN_RIG = 'unknown_rig';

export type FrameResponse = { id: number; frame: FrameResult } | { id: number; error: string };

export interface PoolStats {
  /** Round-trip times (ms) of the last 100 worker responses, oldest first. */
  responseTimesMs: number[];
  averageMs: number;
  workers: number;
  requests: number;
  /** Requests computed in the page because a worker failed, timed out or was unavailable. */
  fallbacks: number;
  timeouts: number;
  errors: number;
  cachedAvatars: number;
}

export interface AnimationPool extends FramePool {
  readonly stats: PoolStats;
  latest(key: string): FrameResult | null;
  /** Drops cache entries not used for ANIMATION_CACHE_CLEANUP_MS (also runs on its own timer). */
  cleanup(): void;
  dispose(): void;
}

export interface PoolOptions {
  /** Creates one worker; return null (or throw) when workers are unavailable. */
  createWorker?: (() => WorkerLike | null) | null;
  size?: number;
  timeoutMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  /** The in-page computation (computeFrame). */
  compute?: (state: FrameState, tMs: number) => FrameResult;
}

interface Pending {
  key: string;
  state: FrameState;
  tMs: number;
  sentAt: number;
  timer: unknown;
  resolve: (frame: FrameResult) => void;
  slot: Slot;
}

interface Slot {
  worker: WorkerLike | null;
  busy: number;
  /** Avatars whose rig this worker has been sent. */
  rigs: Set<string>;
  /** Consecutive failures; a slot that failed too often stops being used. */
  failures: number;
}

/** A slot that failed this many times in a row is left in-page for good. */
const MAX_FAILURES = 3;

export function createAnimationPool(options: PoolOptions = {}): AnimationPool {
  const size = Math.max(0, Math.min(ANIMATION_MAX_WORKERS, options.size ?? ANIMATION_MAX_WORKERS));
  const timeoutMs = options.timeoutMs ?? ANIMATION_REQUEST_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const startInterval = options.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const stopInterval = options.clearInterval ?? ((h) => clearInterval(h as ReturnType<typeof setInterval>));
  const inPage = options.compute ?? computeFrame;
  const slots: Slot[] = [];
  const pending = new Map<number, Pending>();
  const cache = new Map<string, { frame: FrameResult; usedAt: number }>();
  const times: number[] = [];
  const counters = { requests: 0, fallbacks: 0, timeouts: 0, errors: 0 };
  let nextId = 1;
  let disposed = false;

  const remember = (key: string, frame: FrameResult) => {
    cache.set(key, { frame, usedAt: now() });
    return frame;
  };

  const fallback = (p: Pending): void => {
    counters.fallbacks += 1;
    p.resolve(remember(p.key, inPage(p.state, p.tMs)));
  };

  const fail = (slot: Slot, reason: 'timeout' | 'error'): void => {
    slot.failures += 1;
    if (reason === 'timeout') counters.timeouts += 1;
    else counters.errors += 1;
    // Everything this worker owes is computed in the page; the worker is replaced.
    for (const [id, p] of pending) {
      if (p.slot !== slot) continue;
      pending.delete(id);
      clearTimer(p.timer);
      fallback(p);
    }
    slot.worker?.terminate();
    slot.worker = null;
    slot.busy = 0;
    slot.rigs.clear();
  };

  const spawn = (slot: Slot): WorkerLike | null => {
    if (slot.worker) return slot.worker;
    if (!options.createWorker || slot.failures >= MAX_FAILURES) return null;
    let worker: WorkerLike | null = null;
    try {
      worker = options.createWorker();
    } catch {
      worker = null;
    }
    if (!worker) {
      slot.failures = MAX_FAILURES;
      return null;
    }
    worker.onmessage = (event) => {
      const data = event.data as FrameResponse;
      const p = pending.get(data.id);
      if (!p) return;
      pending.delete(data.id);
      clearTimer(p.timer);
      slot.busy = Math.max(0, slot.busy - 1);
      if ('error' in data) {
        if (data.error === UNKNOWN_RIG) slot.rigs.delete(p.key);
        else counters.errors += 1;
        slot.failures += 1;
        fallback(p);
        return;
      }
      slot.failures = 0;
      times.push(now() - p.sentAt);
      if (times.length > ANIMATION_RESPONSE_TIMES_KEPT)
        times.splice(0, times.length - ANIMATION_RESPONSE_TIMES_KEPT);
      p.resolve(remember(p.key, data.frame));
    };
    worker.onerror = () => fail(slot, 'error');
    slot.worker = worker;
    return worker;
  };

  /** The least busy usable slot, growing the pool up to `size`. */
  const pick = (): Slot | null => {
    let best: Slot | null = null;
    for (const slot of slots) {
      if (slot.failures >= MAX_FAILURES) continue;
      if (!best || slot.busy < best.busy) best = slot;
    }
    if ((!best || best.busy > 0) && slots.length < size) {
      const slot: Slot = { worker: null, busy: 0, failures: 0, rigs: new Set() };
      slots.push(slot);
      return slot;
    }
    return best;
  };

  const cleanup = (): void => {
    const cutoff = now() - ANIMATION_CACHE_CLEANUP_MS;
    for (const [key, entry] of cache) {
      if (entry.usedAt >= cutoff) continue;
      cache.delete(key);
      // The workers drop that rig on their own timer; send it again if the avatar comes back.
      for (const slot of slots) slot.rigs.delete(key);
    }
  };
  const interval = startInterval(cleanup, ANIMATION_CACHE_CLEANUP_MS);

  return {
    compute(key, state, tMs) {
      counters.requests += 1;
      return new Promise<FrameResult>((resolve) => {
        const slot = disposed ? null : pick();
        const worker = slot ? spawn(slot) : null;
        if (!slot || !worker) {
          counters.fallbacks += 1;
          resolve(remember(key, inPage(state, tMs)));
          return;
        }
        const id = nextId++;
        const p: Pending = { key, state, tMs, sentAt: now(), resolve, slot, timer: null };
        p.timer = setTimer(() => {
          if (pending.has(id)) fail(slot, 'timeout');
        }, timeoutMs);
        pending.set(id, p);
        slot.busy += 1;
        const { rig, ...dynamic } = state;
        const request: FrameRequest = { id, key, state: dynamic, tMs };
        if (!slot.rigs.has(key)) {
          request.rig = rig;
          slot.rigs.add(key);
        }
        try {
          worker.postMessage(request);
        } catch {
          fail(slot, 'error');
        }
      });
    },
    release(key) {
      cache.delete(key);
      for (const slot of slots) {
        if (slot.rigs.delete(key)) slot.worker?.postMessage({ release: key });
      }
    },
    latest(key) {
      const entry = cache.get(key);
      if (!entry) return null;
      entry.usedAt = now();
      return entry.frame;
    },
    cleanup,
    get stats(): PoolStats {
      const sum = times.reduce((a, b) => a + b, 0);
      return {
        responseTimesMs: [...times],
        averageMs: times.length > 0 ? sum / times.length : 0,
        workers: slots.filter((s) => s.worker).length,
        ...counters,
        cachedAvatars: cache.size,
      };
    },
    dispose() {
      disposed = true;
      stopInterval(interval);
      for (const [id, p] of pending) {
        pending.delete(id);
        clearTimer(p.timer);
        fallback(p);
      }
      for (const slot of slots) slot.worker?.terminate();
      slots.length = 0;
      cache.clear();
    },
  };
}

let shared: AnimationPool | null = null;

/** The page's pool of module workers (Vite bundles worker.ts); in-page where Worker is missing. */
export function getSharedAnimationPool(): AnimationPool {
  shared ??= createAnimationPool({
    size: Math.min(ANIMATION_MAX_WORKERS, Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1)),
    createWorker:
      typeof Worker === 'undefined'
        ? null
        : () =>
            new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike,
  });
  return shared;
}
