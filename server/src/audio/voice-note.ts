import { decodeAudio } from './decode.ts';
import type { AudioContainer } from './sniff.ts';

/**
 * Voice notes (SPEC.md V-2): what browsers record — WebM/Opus (Chrome, Edge), Ogg/Opus (Firefox),
 * MP4/AAC (Safari, through ffmpeg) — decoded to 16 kHz mono for transcription. Over 10 MB is
 * `payload_too_large`, over 10 minutes of decoded audio `audio_too_long`.
 */
export const DECODE_SAMPLE_RATE = 16_000;
export const VOICE_NOTE_MAX_BYTES = 10 * 1024 * 1024;
export const VOICE_NOTE_MAX_MS = 10 * 60 * 1000;

const NOTE_CONTAINERS = ['webm', 'ogg', 'mp4'] as const satisfies readonly AudioContainer[];

export interface DecodedVoiceNote {
  container: (typeof NOTE_CONTAINERS)[number];
  /** Mono samples in −1…1 at `sampleRate`. */
  pcm: Float32Array;
  sampleRate: typeof DECODE_SAMPLE_RATE;
  durationMs: number;
  /** The file extension the note is stored under. */
  extension: 'webm' | 'ogg' | 'm4a';
}

export interface DecodeVoiceNoteOptions {
  /** The `ffmpeg` binary for MP4/AAC; null: none (MP4 is then `unsupported_audio`). Default: on PATH. */
  ffmpeg?: string | null;
  maxBytes?: number;
  maxMs?: number;
}

/** Throws AudioDecodeError (`unsupported_audio`, `invalid_audio`, `payload_too_large`, `audio_too_long`). */
export async function decodeVoiceNote(
  data: Uint8Array,
  options: DecodeVoiceNoteOptions = {},
): Promise<DecodedVoiceNote> {
  const decoded = await decodeAudio(data, {
    accept: NOTE_CONTAINERS,
    sampleRate: DECODE_SAMPLE_RATE,
    maxBytes: options.maxBytes ?? VOICE_NOTE_MAX_BYTES,
    maxMs: options.maxMs ?? VOICE_NOTE_MAX_MS,
    ffmpeg: options.ffmpeg,
    undecodable: 'refuse',
  });
  const container = decoded.container as DecodedVoiceNote['container'];
  return {
    container,
    pcm: decoded.pcm ?? new Float32Array(),
    sampleRate: DECODE_SAMPLE_RATE,
    durationMs: decoded.durationMs,
    extension: container === 'mp4' ? 'm4a' : container,
  };
}
