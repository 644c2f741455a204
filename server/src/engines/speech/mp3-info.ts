/**
 * The LAME "Info" frame (SPEC.md S-8): a silent first frame that tells a decoder how many frames
 * follow, and how many samples the encoder put before the PCM (encoder delay) and after it
 * (padding). Decoders that read it — FFmpeg (so Chromium's `decodeAudioData`), Firefox's MP3
 * demuxer, Apple's AudioToolbox (Safari) — drop those samples, so a chunk decodes to exactly its
 * PCM, `durationMs` long, and chunks played back to back join without a gap. LAME writes no such
 * frame when it encodes to memory (it is written last, into a file); this module writes it as LAME does (Xing fields with frame count, byte count, a linear
 * TOC and quality, then the 36-byte LAME extension with its CRC).
 *
 * Layout: http://gabriel.mp3-tech.org/mp3infotag.html (the LAME tag, rev. 1).
 */

/** LAME's own encoder delay: where sample 0 of the PCM lands in the encoded frames. */
export const LAME_ENCODER_DELAY = 576;
/** The MPEG Layer III synthesis filterbank's delay; the tag's delay and padding leave it implied. */
export const MP3_DECODER_DELAY = 529;

/** Header bits of a Layer III frame (`mp3-frames.ts` reads the same). */
const KBPS = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const SAMPLE_RATES: Record<number, readonly number[]> = {
  3: [44_100, 48_000, 32_000],
  2: [22_050, 24_000, 16_000],
  0: [11_025, 12_000, 8_000],
};
/** The LAME CRC covers the frame's first 190 bytes: the Info frame must be at least that long. */
const CRC_SPAN = 190;
const XING_FLAGS = 0x0f; // frames | bytes | TOC | quality
const LAME_VERSION = 'LAME3.100';
/** 12-bit fields in the tag. */
const MAX_DELAY_OR_PADDING = 0xfff;

export interface InfoFrameInput {
  /** The MP3 frames as the encoder wrote them (no tag yet). */
  frames: Uint8Array;
  /** Number of frames in `frames`. */
  frameCount: number;
  /** Samples per frame (1152 MPEG-1, 576 MPEG-2/2.5). */
  samplesPerFrame: number;
  /** PCM samples (per channel) that were encoded. */
  pcmSamples: number;
  encoderDelay?: number;
}

/** Where a frame's Xing tag starts: after the 4-byte header and the side information. */
function sideInfoEnd(version: number, mono: boolean): number {
  if (version === 3) return 4 + (mono ? 17 : 32);
  return 4 + (mono ? 9 : 17);
}

/**
 * The Info frame for `input.frames`, or null when the stream cannot carry one (not Layer III,
 * or a delay/padding past the tag's 12 bits — the chunk then plays as before, just not trimmed).
 */
export function lameInfoFrame(input: InfoFrameInput): Uint8Array | null {
  const { frames, frameCount, samplesPerFrame, pcmSamples } = input;
  const delay = input.encoderDelay ?? LAME_ENCODER_DELAY;
  const padding = frameCount * samplesPerFrame - delay - pcmSamples;
  if (frames.length < 4 || frames[0] !== 0xff || ((frames[1] ?? 0) & 0xe0) !== 0xe0) return null;
  if (padding < MP3_DECODER_DELAY || padding > MAX_DELAY_OR_PADDING || delay > MAX_DELAY_OR_PADDING)
    return null;
  const b1 = frames[1] ?? 0;
  const b2 = frames[2] ?? 0;
  const b3 = frames[3] ?? 0;
  const version = (b1 >> 3) & 3;
  const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
  if (((b1 >> 1) & 3) !== 1 || !sampleRate) return null;
  const table = version === 3 ? KBPS.mpeg1 : KBPS.mpeg2;
  const coefficient = version === 3 ? 144 : 72;
  // The smallest bitrate whose frame holds the whole tag and its CRC span.
  const bitrateIndex = table.findIndex(
    (kbps, i) => i > 0 && Math.floor((coefficient * kbps * 1000) / sampleRate) >= CRC_SPAN + 2,
  );
  if (bitrateIndex < 0) return null;
  const length = Math.floor((coefficient * (table[bitrateIndex] ?? 0) * 1000) / sampleRate);
  const out = new Uint8Array(length);
  // Header: same version, layer, rate and channel mode as the stream; no CRC, no padding bit.
  out[0] = 0xff;
  out[1] = b1 | 0x01;
  out[2] = (bitrateIndex << 4) | (b2 & 0x0c);
  out[3] = b3;
  const mono = b3 >> 6 === 3;
  const view = new DataView(out.buffer);
  let at = sideInfoEnd(version, mono);
  const totalBytes = length + frames.length;
  out.set(ascii('Info'), at);
  view.setUint32(at + 4, XING_FLAGS);
  view.setUint32(at + 8, frameCount);
  view.setUint32(at + 12, totalBytes);
  for (let i = 0; i < 100; i++) out[at + 16 + i] = Math.floor((i * 256) / 100); // CBR: a linear TOC
  view.setUint32(at + 116, 100); // quality
  at += 120;
  out.set(ascii(LAME_VERSION), at);
  out[at + 9] = 0x01; // tag revision 0, VBR method 1: constant bitrate
  // Lowpass, peak and replay gains, flags and ATH: unknown, left 0.
  out[at + 20] = Math.min(255, table[(b2 >> 4) & 15] ?? 0); // the stream's bitrate
  out[at + 21] = delay >> 4;
  out[at + 22] = ((delay & 0x0f) << 4) | (padding >> 8);
  out[at + 23] = padding & 0xff;
  // Misc, MP3 gain, preset/surround: 0.
  view.setUint32(at + 28, totalBytes); // music length
  view.setUint16(at + 32, crc16(frames, 0, frames.length)); // music CRC
  view.setUint16(at + 34, crc16(out, 0, CRC_SPAN)); // tag CRC: the frame's first 190 bytes
  return out;
}

/** True when the frame at `offset` is a Xing/Info tag frame (decoders skip it; so do we). */
export function isTagFrame(bytes: Uint8Array, offset: number): boolean {
  const b1 = bytes[offset + 1] ?? 0;
  const version = (b1 >> 3) & 3;
  const mono = (bytes[offset + 3] ?? 0) >> 6 === 3;
  const at = offset + sideInfoEnd(version, mono);
  const id = String.fromCharCode(...bytes.subarray(at, at + 4));
  return id === 'Info' || id === 'Xing';
}

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** CRC-16 (polynomial 0x8005, reflected; LAME's `CRC_update_lookup`), from 0. */
const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc16(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ (CRC_TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0);
  return crc;
}

export interface InfoTag {
  /** Audio frames after the tag frame. */
  frameCount: number;
  delay: number;
  padding: number;
}

/**
 * The audio frame count a Xing/Info frame at `offset` declares; null without a tag or without the
 * count. A file that holds fewer frames than it declares was cut (SPEC V-2).
 */
export function declaredFrameCount(bytes: Uint8Array, offset = 0): number | null {
  if (!isTagFrame(bytes, offset)) return null;
  const version = ((bytes[offset + 1] ?? 0) >> 3) & 3;
  const mono = (bytes[offset + 3] ?? 0) >> 6 === 3;
  const at = offset + sideInfoEnd(version, mono);
  if (at + 12 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(at + 4) & 1 ? view.getUint32(at + 8) : null;
}

/** The frame count, delay and padding of a LAME Info/Xing frame at `offset`; null without one. */
export function readInfoTag(bytes: Uint8Array, offset = 0): InfoTag | null {
  if (!isTagFrame(bytes, offset)) return null;
  const version = ((bytes[offset + 1] ?? 0) >> 3) & 3;
  const mono = (bytes[offset + 3] ?? 0) >> 6 === 3;
  const at = offset + sideInfoEnd(version, mono);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (at + 8 > bytes.length) return null;
  const flags = view.getUint32(at + 4);
  if (!(flags & 1)) return null;
  const frameCount = view.getUint32(at + 8);
  const lame = at + 8 + 4 + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0);
  if (lame + 24 > bytes.length || String.fromCharCode(...bytes.subarray(lame, lame + 4)) !== 'LAME') {
    return null;
  }
  const b21 = bytes[lame + 21] ?? 0;
  const b22 = bytes[lame + 22] ?? 0;
  const b23 = bytes[lame + 23] ?? 0;
  return { frameCount, delay: (b21 << 4) | (b22 >> 4), padding: ((b22 & 0x0f) << 8) | b23 };
}
