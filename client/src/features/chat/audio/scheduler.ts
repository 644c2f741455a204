import {
  mouthFrameAt,
  mouthStateAt,
  SILENT_FRAME,
  SILENT_MOUTH,
  type MouthFrame,
  type MouthState,
  type Viseme,
} from './mouth.ts';

/**
 * One reply's playback schedule, without Web Audio: its chunks in seq order, each placed on the
 * AudioContext clock right where the previous one ends (SPEC.md S-1, S-8), and the reply's speech
 * timeline (the chunks' `durationMs` summed, as the server counts it) so that a moment of the
 * clock maps to a chunk, a viseme and a position in the reply.
 */

/** Seconds between "now" and the first chunk's start, so it is never scheduled in the past. */
export const START_LEAD_S = 0.05;

export interface ScheduledChunk {
  seq: number;
  durationMs: number;
  /** Sorted by time. */
  visemes: Viseme[];
  /** The chunk's start in the reply's speech timeline (ms). */
  offsetMs: number;
  /** Set when placed: the AudioContext time (s) it starts and how long it sounds (s). */
  startAt?: number;
  length?: number;
}

export interface Placement {
  startAt: number;
  /** Seconds the chunk sounds: its decoded length, never past `durationMs` (S-8). */
  length: number;
}

export class ReplySchedule<C extends ScheduledChunk = ScheduledChunk> {
  /** Chunks in seq order; `next` is the index of the first not yet placed. */
  readonly chunks: C[] = [];
  next = 0;
  /** AudioContext time at which the last placed chunk ends. */
  endAt = 0;
  /** Placed chunks still sounding. */
  live = 0;

  constructor(readonly replyId: string) {}

  /** The timeline's length (ms): every chunk known so far. */
  get totalMs(): number {
    const last = this.chunks.at(-1);
    return last ? last.offsetMs + last.durationMs : 0;
  }

  /**
   * False for a duplicate, or for a chunk older than one already placed (chunks arrive in order,
   * S-1: such a chunk is too late to play).
   */
  accepts(seq: number): boolean {
    if (this.chunks.some((c) => c.seq === seq)) return false;
    return !this.chunks.slice(0, this.next).some((c) => c.seq > seq);
  }

  /** Adds a chunk in seq order (see `accepts`) and renumbers the timeline. */
  add(chunk: C): boolean {
    if (!this.accepts(chunk.seq)) return false;
    chunk.visemes = [...chunk.visemes].sort((a, b) => a.t - b.t);
    const index = this.chunks.findIndex((c) => c.seq > chunk.seq);
    if (index === -1) this.chunks.push(chunk);
    else this.chunks.splice(index, 0, chunk);
    let offset = 0;
    for (const c of this.chunks) {
      c.offsetMs = offset;
      offset += c.durationMs;
    }
    return true;
  }

  /** The next chunk to place, if any. */
  peek(): C | undefined {
    return this.chunks[this.next];
  }

  /** Skips the next chunk (it could not be decoded). */
  skip(): void {
    this.next += 1;
  }

  /**
   * Places the next chunk, decoded `bufferS` long, at `now`: right after the previous one while
   * it sounds, else START_LEAD_S from now.
   */
  place(chunk: C, bufferS: number, now: number): Placement {
    const startAt = this.endAt > now ? this.endAt : now + (this.live === 0 ? START_LEAD_S : 0);
    const length = Math.min(bufferS, chunk.durationMs / 1000);
    chunk.startAt = startAt;
    chunk.length = length;
    this.endAt = startAt + length;
    this.live += 1;
    this.next += 1;
    return { startAt, length };
  }

  /** A placed chunk stopped sounding; true when it was the last and no more are waiting. */
  ended(): boolean {
    this.live -= 1;
    return this.live === 0 && this.next >= this.chunks.length;
  }

  /** Where playback is at `now` (AudioContext time) in the reply's speech timeline (ms). */
  heardUntilMs(now: number): number {
    let heard = 0;
    for (const c of this.chunks) {
      if (c.startAt === undefined || now < c.startAt) break;
      heard = c.offsetMs + Math.min((now - c.startAt) * 1000, c.durationMs);
    }
    return Math.round(heard);
  }

  /** The chunk sounding at `now`, and how far into it (ms). */
  soundingAt(now: number): { chunk: C; atMs: number } | null {
    for (const c of this.chunks) {
      if (c.startAt === undefined || c.length === undefined) continue;
      if (now >= c.startAt && now < c.startAt + c.length) return { chunk: c, atMs: (now - c.startAt) * 1000 };
    }
    return null;
  }

  mouthState(now: number): MouthState {
    const sounding = this.soundingAt(now);
    return sounding ? mouthStateAt(sounding.chunk.visemes, sounding.atMs) : { ...SILENT_MOUTH };
  }

  mouthFrame(now: number): MouthFrame {
    const sounding = this.soundingAt(now);
    return sounding ? mouthFrameAt(sounding.chunk.visemes, sounding.atMs) : { ...SILENT_FRAME };
  }
}
