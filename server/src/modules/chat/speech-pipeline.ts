import { AUDIO_URL_PREFIX, type Language } from '@alma/protocol';
import { joinMp3 } from '../../engines/speech/mp3-frames.ts';
import type { SpeechSynthesizer } from '../../engines/speech/types.ts';
import type { Log } from '../../lib/logger.ts';
import { createRepeatedWarning } from '../../lib/repeated-warning.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import {
  createReplySpeech,
  joinPcm,
  resolveCustomVoice,
  resolveVoice,
  type ReplySpeech,
  type SpokenChunk,
} from './reply-speech.ts';
import type { ReplyOptions } from './reply-types.ts';

export interface SpeechStart {
  replyId: string;
  language: Language;
  /** The voice the send named (V-6) or its custom voice (VU-8). */
  voice: Pick<ReplyOptions, 'voiceId' | 'customVoice'>;
  /** The reply's signal: stopping the reply stops synthesis at once. */
  signal: AbortSignal;
  /** Called once per chunk, in chunk order, when its audio is ready and all earlier ones were. */
  onChunk: (chunk: SpokenChunk) => void;
}

/**
 * How a reply run gets its speech (SPEC.md S-1…S-4): `start` speaks the reply as its text
 * streams, `store` keeps the reply's audio as one file. One seam, so synthesis and encoding can
 * move off the event loop (issue 14) without the run changing.
 */
export interface SpeechPipeline {
  start(options: SpeechStart): ReplySpeech;
  /**
   * Joins the reply's spoken chunks (cut at `untilMs`) into one file, `<replyId>.<ext>`, and
   * answers its URL; null when nothing was spoken or storing failed — the text reply is kept
   * either way (S-3, S-4).
   */
  store(replyId: string, spoken: readonly SpokenChunk[], untilMs?: number): Promise<string | null>;
}

/**
 * The reply's file: MP3 chunks joined as they were sent — encoded once (issue 14); chunks in
 * another format are joined as PCM and encoded by the synthesiser. Null when nothing is left.
 */
async function reuseOrEncode(
  synthesizer: SpeechSynthesizer,
  spoken: readonly SpokenChunk[],
  untilMs: number | undefined,
): Promise<{ data: Uint8Array; extension: string } | null> {
  if (spoken.every((c) => c.result.mimeType === 'audio/mpeg')) {
    const data = joinMp3(
      spoken.map((c) => ({ audio: c.result.audio, startMs: c.startMs, durationMs: c.result.durationMs })),
      untilMs,
    );
    return data.length > 0 ? { data, extension: 'mp3' } : null;
  }
  const joined = joinPcm(spoken, untilMs);
  if (!joined || joined.pcm.length === 0) return null;
  return synthesizer.encodeFile(joined.pcm, joined.sampleRate);
}

/** Speech on the event loop: each chunk synthesised as it is cut, the reply's file joined from its chunks. */
export function createSpeechPipeline(deps: {
  synthesizer: SpeechSynthesizer;
  /** Where a reply's whole audio is stored; absent: replies are spoken but not stored (`audioUrl` null). */
  audioFiles?: BlobStore | undefined;
  log: Log;
}): SpeechPipeline {
  const { synthesizer, audioFiles, log } = deps;
  const busy = createRepeatedWarning(log, 'speech too busy: replies go on as text');
  const warnBusy = (fields: { replyId: string; chunk: number }) => busy.warn(fields);
  return {
    start: ({ replyId, language, voice, signal, onChunk }) =>
      createReplySpeech({
        synthesizer,
        language,
        voice: voice.customVoice
          ? resolveCustomVoice(voice.customVoice, language)
          : resolveVoice(voice.voiceId, language),
        signal,
        log,
        warnBusy,
        replyId,
        onChunk,
      }),

    async store(replyId, spoken, untilMs) {
      if (!audioFiles || spoken.length === 0) return null;
      try {
        const file = await reuseOrEncode(synthesizer, spoken, untilMs);
        if (!file) return null;
        const name = `${replyId}.${file.extension}`;
        await audioFiles.put(name, file.data);
        return `${AUDIO_URL_PREFIX}${name}`;
      } catch (error) {
        log.error({ err: error, replyId }, 'storing the reply audio failed');
        return null;
      }
    },
  };
}
