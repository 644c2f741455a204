/**
 * The mouth at a moment of a chunk: the viseme sounding then and, for coarticulation, the next
 * one with how far the mouth has moved toward it. Times are ms from the chunk's start — the same
 * clock as its audio, which starts exactly at its first sample (SPEC.md S-8).
 */

export interface Viseme {
  t: number;
  v: string;
  w: number;
}

export interface MouthState {
  viseme: string;
  weight: number;
}

/** The mouth now and next (see `mouthFrameAt`). */
export interface MouthFrame extends MouthState {
  next: string | null;
  nextWeight: number;
  /** 0 → only the current viseme; 1 → at the next viseme's onset. */
  blend: number;
}

/** How long before a viseme's onset the mouth starts moving toward it (coarticulation). */
export const MOUTH_ANTICIPATION_MS = 60;

export const SILENT_MOUTH: MouthState = { viseme: 'sil', weight: 0 };
export const SILENT_FRAME: MouthFrame = { ...SILENT_MOUTH, next: null, nextWeight: 0, blend: 0 };

/** Index of the last viseme at or before `atMs` (visemes sorted by time), −1 before the first. */
function indexAt(visemes: readonly Viseme[], atMs: number): number {
  let index = -1;
  for (let i = 0; i < visemes.length; i++) {
    if ((visemes[i]?.t ?? Infinity) > atMs) break;
    index = i;
  }
  return index;
}

/** The viseme sounding `atMs` into a chunk; silence before its first. */
export function mouthStateAt(visemes: readonly Viseme[], atMs: number): MouthState {
  const current = visemes[indexAt(visemes, atMs)];
  return current ? { viseme: current.v, weight: current.w } : { ...SILENT_MOUTH };
}

/** The mouth frame `atMs` into a chunk whose visemes are sorted by time. */
export function mouthFrameAt(visemes: readonly Viseme[], atMs: number): MouthFrame {
  const index = indexAt(visemes, atMs);
  const current = visemes[index];
  const next = visemes[index + 1];
  const blend = next ? Math.min(1, Math.max(0, 1 - (next.t - atMs) / MOUTH_ANTICIPATION_MS)) : 0;
  return {
    viseme: current?.v ?? 'sil',
    weight: current?.w ?? 0,
    next: next?.v ?? null,
    nextWeight: next?.w ?? 0,
    blend,
  };
}
