import { AppError } from '../../lib/app-error.ts';
import { fromS16le, readWav, resample, toInt16 } from '../../audio/index.ts';
import { encodeMp3, encodeMp3File } from './mp3.ts';
import type { SpeechSynthesizer, SynthesisRequest, SynthesisResult, VoiceParams } from './types.ts';
import { estimateTimings } from './visemes.ts';

/**
 * Speech from any OpenAI-compatible `POST {baseUrl}/audio/speech` (OpenAI, Kokoro-FastAPI,
 * openedai-speech/Piper, LocalAI). We ask for uncompressed audio — `wav` (the rate is in the
 * header; every such server supports it) or `pcm` (OpenAI's raw 24 kHz 16-bit little-endian) — so
 * that the pipeline can join chunks and we can find the voiced parts for the visemes; each chunk
 * is then encoded as MP3 here. These providers give no timings: visemes and word times are
 * estimated from the text and the audio envelope (visemes.ts `estimateTimings`).
 *
 * Failures (network, non-2xx, unreadable audio, time-out) become `AppError('reply_failed')` with
 * the cause in `detail`. An abort rejects with the signal's reason and closes the request.
 */
export interface OpenAISpeechOptions {
  /** Up to and including `/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  /** Spoken when the requested voice is an espeak voice name (the builtin catalogue's). */
  defaultVoice: string;
  responseFormat?: 'wav' | 'pcm';
  timeoutMs: number;
  /**
   * A custom voice's uploaded sample goes with each request (SPEC.md VU-8), for servers that clone
   * voices: `voice` is then the custom voice's id (a key the server can cache the clone under)
   * and `voice_sample` carries `{ id, mime_type, data }` (base64). An extension of the OpenAI
   * body: servers that do not clone ignore unknown fields or refuse — so it is off by default.
   */
  voiceCloning?: boolean;
  fetch?: typeof fetch;
}

/** OpenAI documents `pcm` as 24 kHz mono 16-bit little-endian. */
const OPENAI_PCM_RATE = 24_000;
const MAX_ERROR_BODY = 300;
/** Rates LAME encodes; anything else is resampled to 24 kHz first. */
const MP3_RATES = new Set([8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]);
/** espeak speaks 175 words per minute at speed 1. */
const ESPEAK_WPM_AT_SPEED_1 = 175;

export function createOpenAISynthesizer(options: OpenAISpeechOptions): SpeechSynthesizer {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  const format = options.responseFormat ?? 'wav';
  const fail = (detail: string) =>
    new AppError('reply_failed', { detail: `openai speech (${options.model}): ${detail}` });

  async function fetchAudio(request: SynthesisRequest): Promise<Uint8Array> {
    const speed = speedOf(request.voice);
    const sample = options.voiceCloning ? request.voice.sample : undefined;
    const body = JSON.stringify({
      model: options.model,
      input: request.text,
      voice: sample ? sample.id : providerVoice(request.voice.voice, options.defaultVoice),
      response_format: format,
      ...(speed === undefined ? {} : { speed }),
      ...(sample
        ? {
            voice_sample: {
              id: sample.id,
              mime_type: sample.mimeType,
              data: Buffer.from(await sample.read()).toString('base64'),
            },
          }
        : {}),
    });
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body,
        signal,
      });
      if (!response.ok) {
        const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim();
        throw fail(`provider answered ${response.status}${text ? `: ${text.slice(0, MAX_ERROR_BODY)}` : ''}`);
      }
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      request.signal.throwIfAborted();
      if (error instanceof AppError) throw error;
      if (timeout.aborted) throw fail(`no complete answer from ${url} within ${options.timeoutMs} ms`);
      throw fail(`request failed: ${describe(error)}`);
    }
  }

  return {
    name: `openai:${options.model}`,
    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      request.signal.throwIfAborted();
      const bytes = await fetchAudio(request);
      let decoded: { pcm: Float32Array; sampleRate: number };
      try {
        // A provider may stream its WAV with a placeholder size: read it leniently.
        decoded =
          format === 'wav'
            ? readWav(bytes, { strict: false })
            : { pcm: fromS16le(bytes), sampleRate: OPENAI_PCM_RATE };
      } catch (error) {
        throw fail(`unreadable ${format} audio: ${describe(error)}`);
      }
      let { sampleRate } = decoded;
      if (!MP3_RATES.has(sampleRate)) sampleRate = OPENAI_PCM_RATE;
      const pcm = toInt16(resample(decoded.pcm, decoded.sampleRate, sampleRate));
      request.signal.throwIfAborted();
      const { visemes, words } = estimateTimings(request.text, request.language, pcm, sampleRate);
      return {
        audio: encodeMp3(pcm, sampleRate),
        mimeType: 'audio/mpeg',
        pcm,
        sampleRate,
        durationMs: Math.round((pcm.length / sampleRate) * 1000),
        visemes,
        words,
      };
    },
    encodeFile: encodeMp3File,
  };
}

/**
 * The catalogue's voices are espeak names (`es+f3`, `en-us`, `gmw/en-US+m3`): those mean nothing
 * to a provider, which then speaks its configured default. Provider names (`alloy`, `af_bella`)
 * pass through.
 */
export function providerVoice(voice: string, fallback: string): string {
  const espeakName = voice.includes('+') || voice.includes('/') || /^[a-z]{2}(-[a-z0-9]+)*$/i.test(voice);
  return espeakName || voice === '' ? fallback : voice;
}

/** `rate` as OpenAI's `speed` (0.25–4); a words-per-minute rate (espeak's) is converted. */
function speedOf(voice: VoiceParams): number | undefined {
  if (voice.rate === undefined) return undefined;
  const speed = voice.rate > 4 ? voice.rate / ESPEAK_WPM_AT_SPEED_1 : voice.rate;
  return Math.min(4, Math.max(0.25, Math.round(speed * 100) / 100));
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
