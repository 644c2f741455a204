import type { VoiceUploadFormat } from '@alma/protocol';
import {
  AudioDecodeError,
  decodeAudio,
  sniffAudio,
  type AudioContainer,
  type DecodedAudio,
} from '../../audio/index.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * Voice samples through the audio module (SPEC.md VU-2, VU-3): WAV, MP3, M4A (any ISO-BMFF) and
 * Ogg by content; the whole file checked before anything is stored; the first two minutes decoded
 * for the analysis (MP3 and AAC only with ffmpeg: without it `pcm` is null and the duration is the
 * container's).
 */
const FORMATS = { wav: 'wav', mp3: 'mp3', mp4: 'm4a', ogg: 'ogg' } as const satisfies Partial<
  Record<AudioContainer, VoiceUploadFormat>
>;
const ACCEPTED = Object.keys(FORMATS) as (keyof typeof FORMATS)[];

/** What the analysis reads at most: the first two minutes are plenty to characterise a voice. */
const MAX_ANALYSED_MS = 120_000;

/** The upload format the bytes are, or null (WebM and anything else). */
export function sampleFormat(data: Uint8Array): VoiceUploadFormat | null {
  const container = sniffAudio(data);
  return container && container in FORMATS ? FORMATS[container as keyof typeof FORMATS] : null;
}

/** Throws AppError `voice_format_invalid` (not audio we take) or `voice_file_damaged`. */
export async function decodeSample(
  data: Uint8Array,
  ffmpeg: string | null | undefined,
): Promise<DecodedAudio> {
  try {
    return await decodeAudio(data, {
      accept: ACCEPTED,
      decodeMs: MAX_ANALYSED_MS,
      ffmpeg,
      undecodable: 'describe',
    });
  } catch (error) {
    if (!(error instanceof AudioDecodeError)) throw error;
    const code = error.code === 'unsupported_audio' ? 'voice_format_invalid' : 'voice_file_damaged';
    throw new AppError(code, { detail: error.message });
  }
}
