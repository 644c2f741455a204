import type { Language } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import { createPristineEspeak, type ESpeakEvent, type PristineEspeak } from './espeak-ng.ts';
import { concatPcm, encodeMp3, encodeMp3File, type Mp3Kbps } from './mp3.ts';
import type {
  SpeechSynthesizer,
  SynthesisRequest,
  SynthesisResult,
  VoiceParams,
  WordTiming,
} from './types.ts';
import { visemesFromPhonemes, withLipClosures, type PhonemeEvent } from './visemes.ts';

/**
 * The embedded synthesiser: espeak-ng compiled to wasm (`@echogarden/espeak-ng-emscripten`),
 * which reports each phoneme's IPA and millisecond position, so the viseme track is exact.
 *
 * One wasm worker, created on first use and reused (init 100–240 ms, a warm sentence 20–50 ms;
 * ENGINES.md). The worker is single-threaded and stateful (voice, rate, pitch), so calls run one
 * at a time through a queue; a call whose signal aborted while queued is skipped. Each call starts
 * from the same espeak state (espeak-ng.ts, PristineEspeak), so a clause's audio length, phonemes
 * and words depend on its text and voice only, never on what was spoken before (SPEC.md S-11).
 * espeak runs synchronously, so an abort during a sentence takes effect when that sentence ends.
 */
export const ESPEAK_SAMPLE_RATE = 22_050;
/** espeak's own defaults: 175 words per minute, pitch 50 of 0–99. */
export const DEFAULT_RATE_WPM = 175;
export const DEFAULT_PITCH = 50;
const RATE_RANGE: [number, number] = [80, 450];
const PITCH_RANGE: [number, number] = [0, 99];
/** When a voice name is unknown to espeak, the language's own voice speaks instead. */
const FALLBACK_VOICE: Record<Language, string> = { es: 'es', en: 'en-us' };

/** What one espeak call produced, before encoding. */
export interface EspeakOutput {
  pcm: Int16Array;
  phonemes: PhonemeEvent[];
  words: WordTiming[];
}

export interface BuiltinSpeechSynthesizer extends SpeechSynthesizer {
  /** `synthesize` plus espeak's raw phoneme events (tests, tools). */
  synthesizeDetailed(request: SynthesisRequest): Promise<SynthesisResult & { phonemes: PhonemeEvent[] }>;
  /** espeak's voice identifiers (e.g. `roa/es`, `gmw/en-US`); variants are added as `+f3`. */
  listVoices(): Promise<{ identifier: string; name: string; language: string }[]>;
}

export interface BuiltinSpeechOptions {
  mp3Kbps?: Mp3Kbps;
}

export function createBuiltinSynthesizer(options: BuiltinSpeechOptions = {}): BuiltinSpeechSynthesizer {
  let worker: Promise<PristineEspeak> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  function getWorker(): Promise<PristineEspeak> {
    worker ??= createPristineEspeak().catch((error: unknown) => {
      worker = null; // the next call tries again
      throw new AppError('reply_failed', { detail: `espeak-ng init failed: ${String(error)}` });
    });
    return worker;
  }

  /** Runs `job` after every earlier one; a failure doesn't stop the queue. */
  function enqueue<T>(job: () => Promise<T> | T): Promise<T> {
    const run = queue.then(job, job);
    queue = run.catch(() => undefined);
    return run;
  }

  function speak(
    { worker: espeak, fits, restoreVoice }: PristineEspeak,
    text: string,
    language: Language,
    voice: VoiceParams,
    signal: AbortSignal,
  ) {
    if (!fits(text)) throw new AppError('reply_failed', { detail: 'text too long for one speech call' });
    const rate = clamp(voice.rate ?? DEFAULT_RATE_WPM, RATE_RANGE);
    const pitch = clamp(voice.pitch ?? DEFAULT_PITCH, PITCH_RANGE);
    restoreVoice(`${voice.voice}\n${language}\n${rate}\n${pitch}`, () => {
      if (espeak.set_voice(voice.voice) !== 0 && espeak.set_voice(FALLBACK_VOICE[language]) !== 0) {
        throw new AppError('reply_failed', { detail: `espeak-ng has no voice ${voice.voice}` });
      }
      espeak.set_rate(rate);
      espeak.set_pitch(pitch);
    });
    const blocks: Int16Array[] = [];
    const events: ESpeakEvent[] = [];
    espeak.synthesize(text, (samples, blockEvents) => {
      // `samples` is a copy (HEAP16.slice), safe to keep.
      blocks.push(samples);
      events.push(...blockEvents);
      return signal.aborted;
    });
    return { pcm: concatPcm(blocks), events };
  }

  async function run(request: SynthesisRequest): Promise<EspeakOutput> {
    request.signal.throwIfAborted();
    const espeak = await getWorker();
    return enqueue(() => {
      request.signal.throwIfAborted();
      const { pcm, events } = speak(espeak, request.text, request.language, request.voice, request.signal);
      request.signal.throwIfAborted();
      return { pcm, phonemes: phonemesOf(events), words: wordsOf(events, request.text) };
    });
  }

  async function synthesizeDetailed(
    request: SynthesisRequest,
  ): Promise<SynthesisResult & { phonemes: PhonemeEvent[] }> {
    const { pcm, phonemes, words } = await run(request);
    const durationMs = Math.round((pcm.length / ESPEAK_SAMPLE_RATE) * 1000);
    const language = languageOfVoice(request.voice.voice) ?? request.language;
    return {
      audio: encodeMp3(pcm, ESPEAK_SAMPLE_RATE, options.mp3Kbps),
      mimeType: 'audio/mpeg',
      pcm,
      sampleRate: ESPEAK_SAMPLE_RATE,
      durationMs,
      visemes: visemesFromPhonemes(withLipClosures(phonemes, pcm, ESPEAK_SAMPLE_RATE), language, durationMs),
      words,
      phonemes,
    };
  }

  return {
    name: 'builtin',
    synthesizeDetailed,
    async synthesize(request) {
      const { phonemes: _phonemes, ...result } = await synthesizeDetailed(request);
      return result;
    },
    encodeFile: encodeMp3File,
    async listVoices() {
      const espeak = await getWorker();
      return enqueue(() =>
        espeak.worker.list_voices().map((v) => ({
          identifier: v.identifier,
          name: v.name,
          language: v.languages[0]?.name ?? '',
        })),
      );
    },
  };
}

/** The viseme table follows the voice (its phonemes), not the reply's language, when they differ. */
function languageOfVoice(voice: string): Language | null {
  const code = /^(?:[a-z]+\/)?([a-z]{2})\b/i.exec(voice)?.[1]?.toLowerCase();
  return code === 'es' || code === 'en' ? code : null;
}

function phonemesOf(events: readonly ESpeakEvent[]): PhonemeEvent[] {
  return events
    .filter((e) => e.type === 'phoneme')
    .map((e) => ({ t: e.audio_position, id: typeof e.id === 'string' ? e.id : '' }));
}

/**
 * Word timings from espeak's word events. Positions count code points from 1; espeak may split
 * one written token ("3.5", "e.g.") into several spoken words — the token is reported once, at
 * its first spoken word, without surrounding punctuation.
 */
function wordsOf(events: readonly ESpeakEvent[], text: string): WordTiming[] {
  const chars = Array.from(text);
  const words: WordTiming[] = [];
  let lastTokenStart = -1;
  for (const event of events) {
    if (event.type !== 'word') continue;
    let start = Math.max(0, event.text_position - 1);
    if (start >= chars.length) continue;
    while (start > 0 && !/\s/u.test(chars[start - 1]!)) start--;
    if (start === lastTokenStart) continue;
    let end = start;
    while (end < chars.length && !/\s/u.test(chars[end]!)) end++;
    const token = chars
      .slice(start, end)
      .join('')
      .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    lastTokenStart = start;
    if (token) words.push({ t: event.audio_position, text: token });
  }
  return words;
}

function clamp(value: number, [min, max]: [number, number]): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}
