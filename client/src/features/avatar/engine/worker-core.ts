/**
 * What the animation worker does with a message, apart from the worker plumbing (so Node's
 * worker_threads stand-in in the benchmark runs the same code): keeps each avatar's rig, computes
 * frames, forgets rigs unused for ANIMATION_CACHE_CLEANUP_MS.
 */
import { ANIMATION_CACHE_CLEANUP_MS } from '@alma/protocol';
import { computeFrame } from './compute';
import type { FrameState } from './frame';
import { UNKNOWN_RIG, type FrameRequest, type FrameResponse } from './pool';

export type WorkerMessage = FrameRequest | { release: string };

export function createWorkerCore(now: () => number = () => performance.now()) {
  const rigs = new Map<string, { rig: FrameState['rig']; usedAt: number }>();
  let lastCleanup = now();
  const cleanup = (t: number) => {
    if (t - lastCleanup < ANIMATION_CACHE_CLEANUP_MS) return;
    lastCleanup = t;
    for (const [key, entry] of rigs) if (t - entry.usedAt > ANIMATION_CACHE_CLEANUP_MS) rigs.delete(key);
  };
  return {
    /** The answer to a message (null for a release). */
    handle(message: WorkerMessage): FrameResponse | null {
      if ('release' in message) {
        rigs.delete(message.release);
        return null;
      }
      const { id, key, rig, state, tMs } = message;
      const t = now();
      cleanup(t);
      try {
        if (rig) rigs.set(key, { rig, usedAt: t });
        const entry = rigs.get(key);
        if (!entry) return { id, error: UNKNOWN_RIG };
        entry.usedAt = t;
        return { id, frame: computeFrame({ ...state, rig: entry.rig }, tMs) };
      } catch (error) {
        return { id, error: error instanceof Error ? error.message : String(error) };
      }
    },
    get size() {
      return rigs.size;
    },
  };
}
