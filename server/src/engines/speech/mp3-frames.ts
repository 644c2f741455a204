import { isTagFrame, LAME_ENCODER_DELAY, lameInfoFrame, MP3_DECODER_DELAY, readInfoTag } from './mp3-info.ts';

/**
 * MP3 streams joined without re-encoding (issue 14: encode once). An MP3 stream is a run of
 * self-contained frames, so the reply's file is its chunks' audio frames one after another — the
 * bytes each `speech:chunk` carried, less each chunk's Info frame — under one new Info frame
 * (S-8) that trims the file's start and end. A cut (barge-in, SPEC.md S-2) keeps whole frames.
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
 * the decoded frames when nothing trims them (a decoder that ignores the Info frame).
 */
export const MP3_CODEC_DELAY_SAMPLES = LAME_ENCODER_DELAY + MP3_DECODER_DELAY;

export interface Mp3Frame {
  offset: number;
  length: number;
  samples: number;
  sampleRate: number;
}

/**
 * The audio frames of a Layer III stream, in order (a leading Info/Xing frame is not audio and
 * is left out); stops at the first byte that is not a frame header.
 */
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
    if (offset > 0 || !isTagFrame(bytes, offset)) {
      frames.push({ offset, length, samples: table.samples, sampleRate });
    }
    offset += length;
  }
  return frames;
}

/** The PCM samples a chunk encodes: from its Info frame, else (untagged) from `durationMs`. */
function pcmSamplesOf(audio: Uint8Array, frames: readonly Mp3Frame[], durationMs: number): number {
  const tag = readInfoTag(audio);
  const first = frames[0];
  if (tag && first) return tag.frameCount * first.samples - tag.delay - tag.padding;
  return Math.round((durationMs * (first?.sampleRate ?? 0)) / 1000);
}

/** How many of `frames` hold the first `samples` of the encoded PCM (the codec delay first). */
function framesFor(frames: readonly Mp3Frame[], samples: number): number {
  const perFrame = frames[0]?.samples ?? 1;
  return Math.min(frames.length, Math.ceil((MP3_CODEC_DELAY_SAMPLES + samples) / perFrame));
}

/**
 * The first audio frames of `bytes` that hold its encoded PCM's first `untilMs`: decoded, they
 * play at least that much of it (the codec delay comes first). No Info frame.
 */
export function mp3Prefix(bytes: Uint8Array, untilMs: number): Uint8Array {
  const frames = mp3Frames(bytes);
  const first = frames[0];
  if (!first) return bytes.subarray(0, 0);
  const kept = frames[framesFor(frames, Math.ceil((untilMs * first.sampleRate) / 1000)) - 1];
  return bytes.subarray(first.offset, kept ? kept.offset + kept.length : first.offset);
}

/**
 * One MP3 file from chunks already encoded, each `{ audio, startMs, durationMs }` on the reply's
 * speech timeline, cut at `untilMs` when given (the chunk playing then keeps its frames up to it).
 * The chunks' audio frames follow one Info frame whose delay and padding trim the file to the
 * first chunk's first sample and the last chunk's last one (or the cut).
 */
export function joinMp3(
  chunks: readonly { audio: Uint8Array; startMs: number; durationMs: number }[],
  untilMs?: number,
): Uint8Array {
  const parts: Uint8Array[] = [];
  let frameCount = 0;
  let samplesPerFrame = 0;
  /** Where the file's sound ends, in decoded samples from its first audio frame. */
  let end = 0;
  for (const chunk of chunks) {
    if (untilMs !== undefined && chunk.startMs >= untilMs) break;
    const frames = mp3Frames(chunk.audio);
    const first = frames[0];
    if (!first) continue;
    const cut = untilMs !== undefined && chunk.startMs + chunk.durationMs > untilMs;
    const played = cut
      ? Math.ceil(((untilMs - chunk.startMs) * first.sampleRate) / 1000)
      : pcmSamplesOf(chunk.audio, frames, chunk.durationMs);
    const kept = framesFor(frames, played);
    const last = frames[kept - 1];
    if (!last) continue;
    end = frameCount * first.samples + MP3_CODEC_DELAY_SAMPLES + played;
    frameCount += kept;
    samplesPerFrame = first.samples;
    parts.push(chunk.audio.subarray(first.offset, last.offset + last.length));
  }
  const body = concatBytes(parts);
  if (body.length === 0) return body;
  const info = lameInfoFrame({
    frames: body,
    frameCount,
    samplesPerFrame,
    pcmSamples: end - MP3_CODEC_DELAY_SAMPLES,
  });
  return info ? concatBytes([info, body]) : body;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
