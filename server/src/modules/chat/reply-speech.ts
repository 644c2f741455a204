import type { Language } from '@alma/protocol';
import { createSpeechChunker } from '../../engines/speech/chunker.ts';
import { SpeechBusyError } from '../../engines/speech/synthesis-pool.ts';
import type { SpeechSynthesizer, SynthesisResult, VoiceParams } from '../../engines/speech/types.ts';
import type { Log } from '../../lib/logger.ts';
import { LANGUAGE_CODE, SYSTEM_VOICES, findSystemVoice } from '../voices/catalogue.ts';

/**
 * The speaking half of a reply (ARCHITECTURE §3 steps 3–5; SPEC.md S-1…S-3): text deltas go in,
 * the speech chunker (engines/speech/chunker.ts) cuts speakable chunks (the first one early, at the first clause), each
 * chunk is synthesised as soon as it is cut — concurrently with the engine still writing — and
 * the results come out strictly in chunk order, each placed on the reply's speech timeline.
 */

/** The builtin engine's voice for a language when the send names none we know (spec §3). */
export const DEFAULT_VOICES: Record<Language, string> = { es: 'es+f3', en: 'en-us+f3' };

/** espeak voice names: a language (`es`, `en-us`, `es-419`) and an optional variant (`+f3`). */
const ESPEAK_VOICE = /^([a-z]{2,3})(-[a-z0-9]{2,3})?(\+[a-z0-9]{1,12})?$/;

/**
 * The voice a reply is spoken with (SPEC.md V-6): a catalogue id (`es-mateo`) speaks with its
 * builtin voice, pitch and rate; a catalogue voice of the other language gives way to the
 * reply language's recommended voice of the same category (an English voice reading Spanish
 * mispronounces every word). A raw espeak voice of the reply's language (`es+m3`) is used as
 * it is; anything else (absent, unknown, another language) gets the language's default.
 */
export function resolveVoice(voiceId: string | null | undefined, language: Language): VoiceParams {
  const system = voiceId ? findSystemVoice(voiceId) : undefined;
  if (system) {
    if (LANGUAGE_CODE[system.language] === language) return { ...system.espeak };
    const counterpart = SYSTEM_VOICES.find(
      (v) => v.recommended && v.category === system.category && LANGUAGE_CODE[v.language] === language,
    );
    if (counterpart) return { ...counterpart.espeak };
  }
  const match = voiceId ? ESPEAK_VOICE.exec(voiceId) : null;
  if (voiceId && match?.[1] === language) return { voice: voiceId };
  return { voice: DEFAULT_VOICES[language] };
}

/** The espeak language voice a custom voice's variant is added to, per reply language. */
const CUSTOM_BASE_VOICES: Record<Language, string> = { es: 'es', en: 'en-us' };

/** What a custom voice speaks with (SPEC.md VU-4, VU-8): derived parameters and its sample. */
export interface CustomVoiceSpeaker {
  variant: string;
  pitch: number;
  rate: number;
  sample?: VoiceParams['sample'];
}

/**
 * A custom voice in the reply's language (VU-8): the language's espeak voice with the variant,
 * pitch and rate derived from the upload — an approximation — plus the sample for providers
 * that clone voices.
 */
export function resolveCustomVoice(custom: CustomVoiceSpeaker, language: Language): VoiceParams {
  return {
    voice: `${CUSTOM_BASE_VOICES[language]}${custom.variant}`,
    pitch: custom.pitch,
    rate: custom.rate,
    ...(custom.sample ? { sample: custom.sample } : {}),
  };
}

// ── the speech of one reply ──────────────────────────────────────────────────────────────────

export interface SpokenChunk {
  index: number;
  /** The exact slice of the reply text (may start with the space before it). */
  text: string;
  /** Where it starts in the reply's speech timeline. */
  startMs: number;
  result: SynthesisResult;
}

export interface ReplySpeechOptions {
  synthesizer: SpeechSynthesizer;
  language: Language;
  voice: VoiceParams;
  /** The reply's signal: stopping the reply stops synthesis at once. */
  signal: AbortSignal;
  log: Log;
  /**
   * Where "speech too busy" goes (S-10); default: `log`, a line per reply. The pipeline shares one
   * among its replies (lib/repeated-warning.ts): at 200 replies at once most go on as text.
   */
  warnBusy?: (fields: { replyId: string; chunk: number }) => void;
  replyId: string;
  /** Called once per chunk, in chunk order, when its audio is ready and all earlier ones were. */
  onChunk: (chunk: SpokenChunk) => void;
}

const SPEAKABLE = /[\p{L}\p{N}]/u;

const NO_PCM = new Int16Array(0);
/**
 * What a spoken chunk keeps until its reply's file is stored: an MP3 chunk is joined into the file
 * as it was sent (speech-pipeline.ts), so its PCM is let go at once. Kept to the reply's end, the
 * PCM (~300 KB a reply) outlived the young generation, and at 200 replies at once its ~60 MB of
 * external memory made V8 run full collections on the event loop sooner.
 */
const keptOf = (result: SynthesisResult): SynthesisResult =>
  result.mimeType === 'audio/mpeg' ? { ...result, pcm: NO_PCM } : result;

/**
 * Why a reply's clauses were stopped: one reason, made once. `abort()` without one makes a
 * DOMException, stack trace and all, for every reply that goes on as text (most, at 200 at once).
 */
const CLAUSES_STOPPED = new DOMException('the reply stopped speaking', 'AbortError');

/** `promise`, or null as soon as `signal` aborts: a stop never waits for a synthesiser. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function createReplySpeech(options: ReplySpeechOptions) {
  const { synthesizer, language, voice, signal, log, replyId, onChunk } = options;
  const warnBusy =
    options.warnBusy ?? ((fields: object) => log.warn(fields, 'speech too busy: the reply goes on as text'));
  const chunker = createSpeechChunker();
  const spoken: SpokenChunk[] = [];
  let tail: Promise<void> = Promise.resolve();
  let cutCount = 0;
  let timelineMs = 0;
  let failed = false;
  /** Why speech stopped early (SPEC.md S-10): null while every clause is voiced. */
  let status: 'busy' | 'failed' | null = null;
  /** Text cut but not speakable (punctuation only): carried into the next chunk's slice. */
  let carry = '';
  /** The clause cut before the next one: the next waits for a worker from when this one is done. */
  let previous: Promise<SynthesisResult> | undefined;
  /**
   * The reply's clauses' own signal: aborted with the reply, and when speech stops early, so the
   * clauses still waiting for a worker leave the queue instead of being voiced for nothing (S-10).
   */
  const clauses = new AbortController();
  const stopClauses = () => clauses.abort(CLAUSES_STOPPED);
  signal.addEventListener('abort', stopClauses, { once: true });

  const enqueue = (raw: string) => {
    const slice = carry + raw;
    // The chunker already joins unspeakable pieces to the next; kept for any chunker that doesn't.
    if (!SPEAKABLE.test(slice)) {
      carry = slice;
      return;
    }
    carry = '';
    if (failed || signal.aborted) return;
    const index = cutCount++;
    const pending = synthesizer.synthesize({
      text: slice.trim(),
      language,
      voice,
      signal: clauses.signal,
      first: index === 0,
      ...(previous ? { after: previous } : {}),
    });
    previous = pending;
    pending.catch(() => undefined); // awaited (and its failure handled) in order below
    tail = tail.then(async () => {
      if (failed || signal.aborted) return;
      let result: SynthesisResult | null;
      try {
        result = await untilAborted(pending, signal);
      } catch (error) {
        if (!signal.aborted) {
          // The text wins (S-3, S-10): no more speech for this reply; what was spoken stays spoken.
          failed = true;
          stopClauses();
          if (error instanceof SpeechBusyError) {
            status = 'busy';
            warnBusy({ replyId, chunk: index });
          } else {
            status = 'failed';
            log.error({ err: error, replyId, chunk: index }, 'speech synthesis failed');
          }
        }
        return;
      }
      if (result === null || failed || signal.aborted) return;
      const chunk: SpokenChunk = { index, text: slice, startMs: timelineMs, result: keptOf(result) };
      timelineMs += result.durationMs;
      spoken.push(chunk);
      onChunk(chunk);
    });
  };

  return {
    push(delta: string): void {
      for (const piece of chunker.push(delta)) enqueue(piece);
    },
    /** Speaks what is left and resolves when every chunk was emitted (or dropped after a failure). */
    async finish(): Promise<void> {
      for (const piece of chunker.flush()) enqueue(piece);
      await tail;
      signal.removeEventListener('abort', stopClauses);
    },
    /** Resolves when no chunk is being emitted any more (after a stop: at once, nothing new emits). */
    settled: (): Promise<void> => tail,
    /** The index the chunk being written now will have (gestures are placed on it). */
    get nextIndex(): number {
      return cutCount;
    },
    get failed(): boolean {
      return failed;
    },
    /** Null when every clause was voiced; `busy` or `failed` when the reply went on as text. */
    get status(): 'busy' | 'failed' | null {
      return status;
    },
    get timelineMs(): number {
      return timelineMs;
    },
    spoken: spoken as readonly SpokenChunk[],
  };
}

export type ReplySpeech = ReturnType<typeof createReplySpeech>;

// ── what was heard ───────────────────────────────────────────────────────────────────────────

/** `raw` up to the end of the last of `words` found in order (with what sticks to it: "hola,"). */
function prefixThroughWords(raw: string, words: readonly string[]): string {
  const lower = raw.toLowerCase();
  let pos = 0;
  for (const word of words) {
    const at = lower.indexOf(word.toLowerCase(), pos);
    if (at < 0) {
      // The synthesiser spelled a word differently (numbers, symbols): fall back to counting words.
      const tokens = raw.match(/\s*\S+/g) ?? [];
      return tokens.slice(0, words.length).join('');
    }
    pos = at + word.length;
  }
  while (pos < raw.length && !/\s/.test(raw[pos] ?? ' ')) pos += 1;
  return raw.slice(0, pos);
}

/**
 * What the listener heard of a reply stopped at `heardUntilMs` on its speech timeline (S-2): the
 * chunks that had ended, then the words of the chunk playing whose start time had come.
 */
export function heardPart(
  spoken: readonly SpokenChunk[],
  heardUntilMs: number,
): { text: string; untilMs: number } {
  let text = '';
  let untilMs = 0;
  for (const chunk of spoken) {
    const end = chunk.startMs + chunk.result.durationMs;
    if (end <= heardUntilMs) {
      text += chunk.text;
      untilMs = end;
      continue;
    }
    if (chunk.startMs >= heardUntilMs) break;
    const local = heardUntilMs - chunk.startMs;
    const words = chunk.result.words.filter((w) => w.t < local).map((w) => w.text);
    text += prefixThroughWords(chunk.text, words);
    untilMs = heardUntilMs;
    break;
  }
  return { text: text.trimEnd(), untilMs };
}

/**
 * The reply's audio as one PCM track: every spoken chunk joined, cut at `untilMs` when given.
 * Chunks at another sample rate than the first are left out (and logged by the caller's count).
 */
export function joinPcm(
  spoken: readonly SpokenChunk[],
  untilMs?: number,
): { pcm: Int16Array; sampleRate: number } | null {
  const first = spoken[0];
  if (!first) return null;
  const { sampleRate } = first.result;
  const parts = spoken.filter((c) => c.result.sampleRate === sampleRate).map((c) => c.result.pcm);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const limit = untilMs === undefined ? total : Math.min(total, Math.round((untilMs * sampleRate) / 1000));
  const pcm = new Int16Array(limit);
  let at = 0;
  for (const part of parts) {
    if (at >= limit) break;
    const take = Math.min(part.length, limit - at);
    pcm.set(part.subarray(0, take), at);
    at += take;
  }
  return { pcm, sampleRate };
}
