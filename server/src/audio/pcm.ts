/**
 * Samples: mono float PCM in −1…1 is what every decoder here produces and every consumer takes
 * (transcription, voice analysis); 16-bit integers are what MP3 encoding and visemes take.
 */

/**
 * One PCM sample of a WAV-style interleaved buffer as a float in −1…1: unsigned 8-bit, signed
 * 16/24/32-bit little-endian integers, or 32-bit IEEE float.
 */
export function readPcmSample(view: DataView, at: number, bytesPerSample: number, isFloat: boolean): number {
  if (isFloat) return view.getFloat32(at, true);
  switch (bytesPerSample) {
    case 1:
      return (view.getUint8(at) - 128) / 128;
    case 2:
      return view.getInt16(at, true) / 32768;
    case 3:
      return (
        ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2 ** 31
      );
    default:
      return view.getInt32(at, true) / 2 ** 31;
  }
}

/** The average of the channels' first `length` samples. */
export function mixDown(channels: readonly Float32Array[], length: number): Float32Array {
  const [first] = channels;
  if (channels.length === 1 && first) return first.slice(0, length);
  const out = new Float32Array(length);
  const scale = 1 / Math.max(1, channels.length);
  for (const channel of channels)
    for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) + (channel[i] ?? 0) * scale;
  return out;
}

/** Decoded blocks gathered into one buffer at the end. */
export class PcmCollector {
  private readonly parts: Float32Array[] = [];
  length = 0;

  push(block: Float32Array): void {
    if (block.length === 0) return;
    this.parts.push(block);
    this.length += block.length;
  }

  join(): Float32Array {
    if (this.parts.length === 1 && this.parts[0]) return this.parts[0];
    const out = new Float32Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

/** 16-bit little-endian mono bytes (OpenAI's `pcm`, ffmpeg's `s16le`) as floats. */
export function fromS16le(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}

/** Floats in −1…1 as 16-bit integers (clipped). */
export function toInt16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++)
    out[i] = Math.max(-32768, Math.min(32767, Math.round((pcm[i] ?? 0) * 32768)));
  return out;
}

/** 16-bit integers as floats in −1…1. */
export function fromInt16(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = (pcm[i] ?? 0) / 32768;
  return out;
}

/**
 * `pcm` from `from` Hz to `to` Hz. Down: a box filter over each output sample's span (a cheap
 * low-pass that keeps speech clean down to 8 kHz); up: linear interpolation.
 */
export function resample(pcm: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return pcm;
  const ratio = from / to;
  const length = Math.floor(pcm.length / ratio);
  const out = new Float32Array(length);
  if (ratio > 1) {
    for (let i = 0; i < length; i++) {
      const start = Math.floor(i * ratio);
      const end = Math.max(start + 1, Math.floor((i + 1) * ratio));
      let sum = 0;
      for (let j = start; j < end; j++) sum += pcm[j] ?? 0;
      out[i] = sum / (end - start);
    }
  } else {
    for (let i = 0; i < length; i++) {
      const x = i * ratio;
      const j = Math.floor(x);
      const a = pcm[j] ?? 0;
      out[i] = a + ((pcm[j + 1] ?? a) - a) * (x - j);
    }
  }
  return out;
}
