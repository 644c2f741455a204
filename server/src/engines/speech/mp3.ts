import { Mp3Encoder } from '@breezystack/lamejs';
import { concatBytes, mp3Frames } from './mp3-frames.ts';
import { lameInfoFrame } from './mp3-info.ts';

/**
 * Mono 16-bit PCM → MP3 with `@breezystack/lamejs` (the original `lamejs` breaks under ESM, see
 * ENGINES.md). Speech at 22–24 kHz needs little: 48 kbps is transparent enough for a voice.
 * lamejs takes the MPEG sample rates only (8–48 kHz: 8000, 11025, 12000, 16000, 22050, 24000,
 * 32000, 44100, 48000).
 */
export const DEFAULT_MP3_KBPS = 48;
/** lamejs encodes in blocks; a multiple of its 1152-sample frame keeps buffers small. */
const BLOCK = 1152 * 8;

/**
 * The frames lamejs writes, after a LAME Info frame carrying the encoder delay and padding
 * (`mp3-info.ts`, SPEC.md S-8): decoded by a browser, the result is exactly `pcm`.
 */
export function encodeMp3(pcm: Int16Array, sampleRate: number, kbps = DEFAULT_MP3_KBPS): Uint8Array {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  for (let start = 0; start < pcm.length; start += BLOCK) {
    const out = encoder.encodeBuffer(pcm.subarray(start, start + BLOCK));
    if (out.length > 0) parts.push(out);
  }
  const tail = encoder.flush();
  if (tail.length > 0) parts.push(tail);
  const frames = concatBytes(parts);
  const layout = mp3Frames(frames);
  const info = lameInfoFrame({
    frames,
    frameCount: layout.length,
    samplesPerFrame: layout[0]?.samples ?? 0,
    pcmSamples: pcm.length,
  });
  return info ? concatBytes([info, frames]) : frames;
}

export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The one-file encoding both synthesizers store a reply as. */
export function encodeMp3File(
  pcm: Int16Array,
  sampleRate: number,
): Promise<{ data: Uint8Array; mimeType: string; extension: string }> {
  return Promise.resolve({ data: encodeMp3(pcm, sampleRate), mimeType: 'audio/mpeg', extension: 'mp3' });
}
