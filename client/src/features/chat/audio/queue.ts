/**
 * The speech playback queue (SPEC.md S-1, S-2): every `speech:chunk` of a reply is decoded with
 * Web Audio and scheduled right after the previous one, so the reply sounds as one piece. Chunks
 * play strictly in seq order: a chunk whose decode finishes early waits for its predecessors.
 *
 * The queue also keeps the reply's speech timeline (the sum of the chunks' `durationMs`, as the
 * server counts it), so it can say where playback is (`currentTimeMs`, `stop()` → heardUntilMs)
 * and which viseme the mouth shows now (`getMouthState`) for the avatar.
 *
 * The AudioContext is reached only through the small interfaces below, so tests (jsdom has no
 * Web Audio) pass a fake one.
 */

export interface Viseme {
  t: number;
  v: string;
  w: number;
}

export interface SpeechChunkInput {
  replyId: string;
  seq: number;
  audio: ArrayBuffer | Uint8Array;
  durationMs: number;
  visemes: Viseme[];
  words?: { t: number; text: string }[];
}

export interface AudioBufferLike {
  duration: number;
}

export interface AudioSourceLike {
  buffer: AudioBufferLike | null;
  onended: (() => void) | null;
  connect(destination: unknown): unknown;
  start(when: number): void;
  stop(when?: number): void;
}

export interface AudioContextLike {
  readonly currentTime: number;
  readonly state: string;
  readonly destination: unknown;
  resume(): Promise<void>;
  decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike>;
  createBufferSource(): AudioSourceLike;
}

export interface MouthState {
  viseme: string;
  weight: number;
}

/** The mouth now and next (see `getMouthFrame`). */
export interface MouthFrame extends MouthState {
  next: string | null;
  nextWeight: number;
  /** 0 → only the current viseme; 1 → at the next viseme's onset. */
  blend: number;
}

/** How long before a viseme's onset the mouth starts moving toward it (coarticulation). */
export const MOUTH_ANTICIPATION_MS = 60;

const SILENT_FRAME: MouthFrame = { viseme: 'sil', weight: 0, next: null, nextWeight: 0, blend: 0 };

/** The mouth frame `atMs` into a chunk whose visemes are sorted by time. */
export function mouthFrameAt(visemes: readonly Viseme[], atMs: number): MouthFrame {
  let index = -1;
  for (let i = 0; i < visemes.length; i++) {
    if ((visemes[i]?.t ?? Infinity) > atMs) break;
    index = i;
  }
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

/** Seconds between "now" and the first chunk's start, so it is never scheduled in the past. */
const START_LEAD_S = 0.05;
/** Entries kept in the page's debug hook. */
const DEBUG_LIMIT = 500;

interface Entry {
  seq: number;
  durationMs: number;
  visemes: Viseme[];
  decoded: Promise<AudioBufferLike | null>;
  /** Set when scheduled. */
  source?: AudioSourceLike;
  /** AudioContext time (s) when the chunk starts and how long its buffer lasts (s). */
  startAt?: number;
  length?: number;
  /** The chunk's start in the reply's speech timeline (ms). */
  offsetMs: number;
}

interface ReplyPlayback {
  replyId: string;
  /** Chunks in seq order; `next` is the index of the first not yet scheduled. */
  entries: Entry[];
  next: number;
  /** AudioContext time at which the last scheduled chunk ends. */
  endAt: number;
  /** Timeline offset (ms) after the last entry. */
  totalMs: number;
  /** Sources still sounding. */
  live: number;
  pumping: boolean;
}

export interface DebugPlayed {
  replyId: string;
  seq: number;
}

declare global {
  interface Window {
    /** Chunks the queue started, for end-to-end tests. */
    __almaAudio?: { played: DebugPlayed[]; stopped: StopResult[] };
  }
}

function copyBuffer(audio: ArrayBuffer | Uint8Array): ArrayBuffer {
  // decodeAudioData detaches its argument: always hand it a copy.
  if (audio instanceof ArrayBuffer) return audio.slice(0);
  const copy = new Uint8Array(audio.byteLength);
  copy.set(audio);
  return copy.buffer;
}

export class SpeechQueue {
  private context: AudioContextLike | null = null;
  private reply: ReplyPlayback | null = null;
  /** Replies stopped or finished: their late chunks are dropped. */
  private readonly closed = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private snapshot: QueueSnapshot = { replyId: null, playing: false };

  constructor(private readonly createContext: () => AudioContextLike | null) {}

  /** Creates the AudioContext if needed and resumes it (call from a user gesture). */
  unlock(): void {
    const context = this.ensureContext();
    if (context && context.state === 'suspended') void context.resume().catch(() => undefined);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getSnapshot = (): QueueSnapshot => this.snapshot;

  /** Adds a chunk; a chunk of another reply replaces the one playing. */
  enqueue(chunk: SpeechChunkInput): void {
    if (this.closed.has(chunk.replyId)) return;
    const context = this.ensureContext();
    if (!context) return;
    if (this.reply && this.reply.replyId !== chunk.replyId) this.stop();
    if (!this.reply) {
      this.reply = {
        replyId: chunk.replyId,
        entries: [],
        next: 0,
        endAt: 0,
        totalMs: 0,
        live: 0,
        pumping: false,
      };
    }
    const reply = this.reply;
    if (reply.entries.some((e) => e.seq === chunk.seq)) return;
    // Chunks arrive in order (SPEC.md S-1); one older than a chunk already scheduled is too late.
    const scheduled = reply.entries.slice(0, reply.next);
    if (scheduled.some((e) => e.seq > chunk.seq)) return;
    const entry: Entry = {
      seq: chunk.seq,
      durationMs: chunk.durationMs,
      visemes: [...chunk.visemes].sort((a, b) => a.t - b.t),
      decoded: context.decodeAudioData(copyBuffer(chunk.audio)).catch(() => null),
      offsetMs: 0,
    };
    const index = reply.entries.findIndex((e) => e.seq > chunk.seq);
    if (index === -1) reply.entries.push(entry);
    else reply.entries.splice(index, 0, entry);
    // Timeline offsets follow seq order.
    let offset = 0;
    for (const e of reply.entries) {
      e.offsetMs = offset;
      offset += e.durationMs;
    }
    reply.totalMs = offset;
    this.publish({
      replyId: reply.replyId,
      playing: this.snapshot.playing && this.snapshot.replyId === reply.replyId,
    });
    void this.pump(reply);
  }

  /** Schedules, in order, every chunk whose decode (and every predecessor's) is done. */
  private async pump(reply: ReplyPlayback): Promise<void> {
    if (reply.pumping) return;
    reply.pumping = true;
    try {
      while (this.reply === reply && reply.next < reply.entries.length) {
        const entry = reply.entries[reply.next];
        if (!entry) break;
        const buffer = await entry.decoded;
        if (this.reply !== reply) return;
        reply.next += 1;
        if (!buffer) continue; // An undecodable chunk is skipped; the text still shows.
        this.schedule(reply, entry, buffer);
      }
    } finally {
      reply.pumping = false;
    }
  }

  private schedule(reply: ReplyPlayback, entry: Entry, buffer: AudioBufferLike): void {
    const context = this.context;
    if (!context) return;
    const now = context.currentTime;
    const startAt = reply.endAt > now ? reply.endAt : now + (reply.live === 0 ? START_LEAD_S : 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    entry.source = source;
    entry.startAt = startAt;
    entry.length = buffer.duration;
    reply.endAt = startAt + buffer.duration;
    reply.live += 1;
    source.onended = () => {
      reply.live -= 1;
      if (this.reply === reply && reply.live === 0 && reply.next >= reply.entries.length) {
        this.publish({ replyId: reply.replyId, playing: false });
      }
    };
    source.start(startAt);
    recordPlayed({ replyId: reply.replyId, seq: entry.seq });
    this.publish({ replyId: reply.replyId, playing: true });
  }

  /** Where playback is in the current reply's speech timeline (ms); 0 without one. */
  currentTimeMs(now = this.context?.currentTime ?? 0): number {
    const reply = this.reply;
    if (!reply) return 0;
    let heard = 0;
    for (const e of reply.entries) {
      if (e.startAt === undefined || e.length === undefined) break;
      if (now < e.startAt) break;
      const elapsedMs = (now - e.startAt) * 1000;
      heard = e.offsetMs + Math.min(elapsedMs, e.durationMs);
    }
    return Math.round(heard);
  }

  /** The viseme of the chunk sounding at `now` (AudioContext time, s); silence otherwise. */
  getMouthState(now = this.context?.currentTime ?? 0): MouthState {
    const reply = this.reply;
    const silent = { viseme: 'sil', weight: 0 };
    if (!reply) return silent;
    const entry = reply.entries.find(
      (e) =>
        e.startAt !== undefined && e.length !== undefined && now >= e.startAt && now < e.startAt + e.length,
    );
    if (!entry || entry.startAt === undefined) return silent;
    const atMs = (now - entry.startAt) * 1000;
    let current: Viseme | undefined;
    for (const v of entry.visemes) {
      if (v.t > atMs) break;
      current = v;
    }
    return current ? { viseme: current.v, weight: current.w } : silent;
  }

  /**
   * The mouth with what comes next, for coarticulation: the current viseme, the next one of the
   * chunk and `blend`, rising 0 → 1 over the MOUTH_ANTICIPATION_MS before the next one starts.
   */
  getMouthFrame(now = this.context?.currentTime ?? 0): MouthFrame {
    const reply = this.reply;
    if (!reply) return { ...SILENT_FRAME };
    const entry = reply.entries.find(
      (e) =>
        e.startAt !== undefined && e.length !== undefined && now >= e.startAt && now < e.startAt + e.length,
    );
    if (!entry || entry.startAt === undefined) return { ...SILENT_FRAME };
    return mouthFrameAt(entry.visemes, (now - entry.startAt) * 1000);
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
    for (const e of reply.entries) {
      if (!e.source) continue;
      e.source.onended = null;
      try {
        e.source.stop();
      } catch {
        // Already stopped.
      }
    }
    this.publish({ replyId: null, playing: false });
    const result = { replyId: reply.replyId, heardUntilMs };
    debugHook()?.stopped.push(result);
    return result;
  }

  private ensureContext(): AudioContextLike | null {
    if (!this.context) this.context = this.createContext();
    return this.context;
  }

  private publish(next: QueueSnapshot): void {
    if (next.replyId === this.snapshot.replyId && next.playing === this.snapshot.playing) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

/** `window.__almaAudio`: what the queue started and stopped, for end-to-end tests. */
function debugHook(): NonNullable<Window['__almaAudio']> | null {
  if (typeof window === 'undefined') return null;
  return (window.__almaAudio ??= { played: [], stopped: [] });
}

function recordPlayed(entry: DebugPlayed): void {
  const hook = debugHook();
  if (!hook) return;
  hook.played.push(entry);
  if (hook.played.length > DEBUG_LIMIT) hook.played.splice(0, hook.played.length - DEBUG_LIMIT);
}
