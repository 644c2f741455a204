import {
  decodeChunk,
  heardTime,
  type AudioBufferLike,
  type AudioContextLike,
  type AudioSourceLike,
} from './decoder.ts';
import type { MouthFrame, MouthState, Viseme } from './mouth.ts';
import {
  PlaybackState,
  recordPlayed,
  recordStopped,
  type QueueSnapshot,
  type StopResult,
} from './playback-state.ts';
import { ReplySchedule, type ScheduledChunk } from './scheduler.ts';

/**
 * The speech playback queue (SPEC.md S-1, S-2, S-8): every `speech:chunk` of a reply is decoded
 * with Web Audio (`decoder.ts`) and placed right after the previous one (`scheduler.ts`), so the
 * reply sounds as one piece. Chunks play strictly in seq order: a chunk whose decode finishes
 * early waits for its predecessors. The queue says where playback is (`currentTimeMs`, `stop()`
 * → heardUntilMs), which viseme the mouth shows now (`getMouthState`, `getMouthFrame`, from
 * `mouth.ts`) and which reply plays (`playback-state.ts`).
 *
 * The AudioContext is reached only through `decoder.ts`'s small interfaces, so tests (jsdom has
 * no Web Audio) pass a fake one.
 */

export type { AudioBufferLike, AudioContextLike, AudioSourceLike } from './decoder.ts';
export {
  MOUTH_ANTICIPATION_MS,
  mouthFrameAt,
  type MouthFrame,
  type MouthState,
  type Viseme,
} from './mouth.ts';
export type { DebugPlayed, QueueSnapshot, StopResult } from './playback-state.ts';

export interface SpeechChunkInput {
  replyId: string;
  seq: number;
  audio: ArrayBuffer | Uint8Array;
  durationMs: number;
  visemes: Viseme[];
  words?: { t: number; text: string }[];
}

interface Entry extends ScheduledChunk {
  decoded: Promise<AudioBufferLike | null>;
  /** Set when scheduled. */
  source?: AudioSourceLike;
}

export class SpeechQueue {
  private context: AudioContextLike | null = null;
  private reply: ReplySchedule<Entry> | null = null;
  /** Replies whose pump loop runs. */
  private readonly pumping = new WeakSet<ReplySchedule<Entry>>();
  /** Replies stopped or finished: their late chunks are dropped. */
  private readonly closed = new Set<string>();
  private readonly state = new PlaybackState();

  constructor(private readonly createContext: () => AudioContextLike | null) {}

  /** Creates the AudioContext if needed and resumes it (call from a user gesture). */
  unlock(): void {
    const context = this.ensureContext();
    if (context && context.state === 'suspended') void context.resume().catch(() => undefined);
  }

  subscribe(listener: () => void): () => void {
    return this.state.subscribe(listener);
  }

  getSnapshot = (): QueueSnapshot => this.state.get();

  /** Adds a chunk; a chunk of another reply replaces the one playing. */
  enqueue(chunk: SpeechChunkInput): void {
    if (this.closed.has(chunk.replyId)) return;
    const context = this.ensureContext();
    if (!context) return;
    if (this.reply && this.reply.replyId !== chunk.replyId) this.stop();
    const reply = (this.reply ??= new ReplySchedule<Entry>(chunk.replyId));
    if (!reply.accepts(chunk.seq)) return;
    reply.add({
      seq: chunk.seq,
      durationMs: chunk.durationMs,
      visemes: chunk.visemes,
      offsetMs: 0,
      decoded: decodeChunk(context, chunk.audio),
    });
    const snapshot = this.state.get();
    this.state.publish({
      replyId: reply.replyId,
      playing: snapshot.playing && snapshot.replyId === reply.replyId,
    });
    void this.pump(reply);
  }

  /** Schedules, in order, every chunk whose decode (and every predecessor's) is done. */
  private async pump(reply: ReplySchedule<Entry>): Promise<void> {
    if (this.pumping.has(reply)) return;
    this.pumping.add(reply);
    try {
      for (let entry = reply.peek(); this.reply === reply && entry; entry = reply.peek()) {
        const buffer = await entry.decoded;
        if (this.reply !== reply) return;
        if (buffer) this.play(reply, entry, buffer);
        else reply.skip(); // An undecodable chunk is skipped; the text still shows.
      }
    } finally {
      this.pumping.delete(reply);
    }
  }

  private play(reply: ReplySchedule<Entry>, entry: Entry, buffer: AudioBufferLike): void {
    const context = this.context;
    if (!context) return;
    const placedAt = context.currentTime;
    const { startAt, length } = reply.place(entry, buffer.duration, placedAt);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    entry.source = source;
    source.onended = () => {
      if (reply.ended() && this.reply === reply)
        this.state.publish({ replyId: reply.replyId, playing: false });
    };
    // From the buffer's first sample (the decoder trimmed the codec delay, S-8), for `length`.
    source.start(startAt, 0, length);
    recordPlayed({
      replyId: reply.replyId,
      seq: entry.seq,
      placedAt,
      startAt,
      length,
      durationMs: entry.durationMs,
      decodedMs: buffer.duration * 1000,
    });
    this.state.publish({ replyId: reply.replyId, playing: true });
  }

  /** Where playback is in the current reply's speech timeline (ms); 0 without one. */
  currentTimeMs(now = this.context?.currentTime ?? 0): number {
    return this.reply?.heardUntilMs(now) ?? 0;
  }

  /**
   * The viseme of the chunk sounding at `now` (AudioContext time, s; by default the time being
   * heard, `heardTime`); silence otherwise.
   */
  getMouthState(now = this.heardNow()): MouthState {
    return this.reply?.mouthState(now) ?? { viseme: 'sil', weight: 0 };
  }

  /**
   * The mouth with what comes next, for coarticulation: the current viseme, the next one of the
   * chunk and `blend`, rising 0 → 1 over the MOUTH_ANTICIPATION_MS before the next one starts.
   * `now` as for `getMouthState`.
   */
  getMouthFrame(now = this.heardNow()): MouthFrame {
    return this.reply?.mouthFrame(now) ?? { viseme: 'sil', weight: 0, next: null, nextWeight: 0, blend: 0 };
  }

  /** The current reply's id, if any. */
  get replyId(): string | null {
    return this.reply?.replyId ?? null;
  }

  /** Stops at once; later chunks of that reply are dropped. Null when nothing was queued. */
  stop(): StopResult | null {
    const reply = this.reply;
    if (!reply) return null;
    const heardUntilMs = this.currentTimeMs();
    this.reply = null;
    this.closed.add(reply.replyId);
    for (const entry of reply.chunks) {
      if (!entry.source) continue;
      entry.source.onended = null;
      try {
        entry.source.stop();
      } catch {
        // Already stopped.
      }
    }
    this.state.publish({ replyId: null, playing: false });
    const result = { replyId: reply.replyId, heardUntilMs };
    recordStopped(result);
    return result;
  }

  private heardNow(): number {
    return this.context ? heardTime(this.context) : 0;
  }

  private ensureContext(): AudioContextLike | null {
    if (!this.context) this.context = this.createContext();
    return this.context;
  }
}
