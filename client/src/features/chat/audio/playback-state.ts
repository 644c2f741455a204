/**
 * What the speech queue tells the app: which reply plays (a snapshot for `useSyncExternalStore`
 * and zustand), and, for end-to-end tests, `window.__almaAudio` — every chunk it started with the
 * AudioContext time it was placed at, and every stop. Nothing in the app reads the hook.
 */

export interface QueueSnapshot {
  /** The reply being played (or waiting for its first chunk to decode), else null. */
  replyId: string | null;
  playing: boolean;
}

export interface StopResult {
  replyId: string;
  /** How much of the reply's speech timeline was played, in ms. */
  heardUntilMs: number;
}

export interface DebugPlayed {
  replyId: string;
  seq: number;
  /** AudioContext time (s) when the chunk was placed, when it starts, and how long it sounds (s). */
  placedAt: number;
  startAt: number;
  length: number;
  /** The chunk's `durationMs` and its decoded buffer's length (ms): equal when gapless (S-8). */
  durationMs: number;
  decodedMs: number;
}

declare global {
  interface Window {
    /** Chunks the queue started and replies it stopped, for end-to-end tests. */
    __almaAudio?: { played: DebugPlayed[]; stopped: StopResult[] };
  }
}

/** Entries kept in the page's debug hook. */
const DEBUG_LIMIT = 500;

export class PlaybackState {
  private readonly listeners = new Set<() => void>();
  private snapshot: QueueSnapshot = { replyId: null, playing: false };

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(): QueueSnapshot {
    return this.snapshot;
  }

  /** Sets the snapshot; listeners hear of real changes only. */
  publish(next: QueueSnapshot): void {
    if (next.replyId === this.snapshot.replyId && next.playing === this.snapshot.playing) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

function debugHook(): NonNullable<Window['__almaAudio']> | null {
  if (typeof window === 'undefined') return null;
  return (window.__almaAudio ??= { played: [], stopped: [] });
}

export function recordPlayed(entry: DebugPlayed): void {
  const hook = debugHook();
  if (!hook) return;
  hook.played.push(entry);
  if (hook.played.length > DEBUG_LIMIT) hook.played.splice(0, hook.played.length - DEBUG_LIMIT);
}

export function recordStopped(result: StopResult): void {
  debugHook()?.stopped.push(result);
}
