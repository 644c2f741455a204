import { createMp3Encoder } from 'wasm-media-encoders';
import { concatBytes, mp3Frames } from './mp3-frames.ts';
import { lameInfoFrame } from './mp3-info.ts';

/**
 * Mono 16-bit PCM → MP3 with the reference LAME (3.100) compiled to WebAssembly
 * (`wasm-media-encoders`): a third of the CPU of `@breezystack/lamejs`, its JavaScript port, for
 * frames of the same format and size (tests/bench/encoder-bench.ts; README "Speed under load"),
 * so every browser still decodes them gaplessly (S-8). Speech at 22–24 kHz
 * needs little: 48 kbps CBR is transparent enough for a voice. LAME takes the MPEG sample rates
 * only (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000).
 */
export type Mp3Kbps = 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160;
export const DEFAULT_MP3_KBPS: Mp3Kbps = 48;

/**
 * One encoder per thread (the speech workers each import this module), made when the module
 * loads — instantiating the wasm takes a few ms once — and configured afresh for every stream.
 * `encodeMp3` is synchronous, so no two streams ever share it at once.
 */
const lame = await createMp3Encoder();

/**
 * The frames LAME writes, after a LAME Info frame carrying the encoder delay and padding
 * (`mp3-info.ts`, SPEC.md S-8): decoded by a browser, the result is exactly `pcm`.
 */
export function encodeMp3(pcm: Int16Array, sampleRate: number, kbps: Mp3Kbps = DEFAULT_MP3_KBPS): Uint8Array {
  lame.configure({ sampleRate, channels: 1, bitrate: kbps });
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) samples[i] = (pcm[i] ?? 0) / 32_768;
  // Both answers are views into the encoder's memory, valid until its next call: copied.
  const body = lame.encode([samples]).slice();
  return withInfoFrame(concatBytes([body, lame.finalize()]), pcm.length);
}

/**
 * LAME's audio `frames` for `pcmSamples` of PCM, behind the Info frame that trims them to it
 * (S-8). LAME writes no tag of its own when it writes to memory.
 */
export function withInfoFrame(frames: Uint8Array, pcmSamples: number): Uint8Array {
  const layout = mp3Frames(frames);
  const info = lameInfoFrame({
    frames,
    frameCount: layout.length,
    samplesPerFrame: layout[0]?.samples ?? 0,
    pcmSamples,
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
