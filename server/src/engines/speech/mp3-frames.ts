import { concatBytes } from './mp3.ts';

/**
 * MP3 streams joined without re-encoding (issue 14: encode once). An MP3 stream is a run of
 * self-contained frames, so the reply's file is its chunks' frames one after another — the bytes
 * each `speech:chunk` carried. A cut (barge-in, SPEC.md S-2) keeps whole frames.
 */

/** Samples per frame and the bitrate table (kbps) for MPEG-1 and MPEG-2/2.5 Layer III. */
const LAYER3 = {
  mpeg1: { samples: 1152, kbps: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] },
  mpeg2: { samples: 576, kbps: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] },
};
const SAMPLE_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000], // MPEG-1
  2: [22_050, 24_000, 16_000], // MPEG-2
  0: [11_025, 12_000, 8_000], // MPEG-2.5
};
/**
 * LAME's encoder delay (576) plus the decoder's (529): where sample 0 of the encoded PCM lands in
 * the decoded stream. lamejs writes no LAME tag, so nothing tells a decoder to skip them.
 */
export const MP3_CODEC_DELAY_SAMPLES = 576 + 529;

export interface Mp3Frame {
  offset: number;
  length: number;
  samples: number;
  sampleRate: number;
}

/** The frames of a Layer III stream, in order; stops at the first byte that is not a frame header. */
export function mp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    const b1 = bytes[offset + 1] ?? 0;
    const b2 = bytes[offset + 2] ?? 0;
    if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) break;
    const version = (b1 >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
    const layer = (b1 >> 1) & 3; // 1: Layer III
    const table = version === 3 ? LAYER3.mpeg1 : LAYER3.mpeg2;
    const kbps = table.kbps[(b2 >> 4) & 15] ?? 0;
    const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
    if (layer !== 1 || !kbps || !sampleRate) break;
    const padding = (b2 >> 1) & 1;
    const length = Math.floor((table.samples / 8) * ((kbps * 1000) / sampleRate)) + padding;
    if (offset + length > bytes.length) break;
    frames.push({ offset, length, samples: table.samples, sampleRate });
    offset += length;
  }
  return frames;
}

/**
 * The first frames of `bytes` that hold its encoded PCM's first `untilMs`: decoded, they play at
 * least that much of it (the codec delay comes first).
 */
export function mp3Prefix(bytes: Uint8Array, untilMs: number): Uint8Array {
  const frames = mp3Frames(bytes);
  let decoded = 0;
  let end = 0;
  for (const frame of frames) {
    const needed = MP3_CODEC_DELAY_SAMPLES + Math.ceil((untilMs * frame.sampleRate) / 1000);
    if (decoded >= needed) break;
    decoded += frame.samples;
    end = frame.offset + frame.length;
  }
  return bytes.subarray(0, end);
}

/**
 * One MP3 file from chunks already encoded, each `{ audio, startMs, durationMs }` on the reply's
 * speech timeline, cut at `untilMs` when given (the chunk playing then keeps its frames up to it).
 */
export function joinMp3(
  chunks: readonly { audio: Uint8Array; startMs: number; durationMs: number }[],
  untilMs?: number,
): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const chunk of chunks) {
    if (untilMs !== undefined && chunk.startMs >= untilMs) break;
    const end = chunk.startMs + chunk.durationMs;
    parts.push(
      untilMs === undefined || end <= untilMs ? chunk.audio : mp3Prefix(chunk.audio, untilMs - chunk.startMs),
    );
  }
  return concatBytes(parts);
}
