/**
 * Mono 16-bit PCM → Ogg/Opus, each call a whole stream that decodes alone and gaplessly (what a
 * `speech:chunk` would need, SPEC.md S-8): libopus 1.3.1 and the speex resampler compiled to
 * WebAssembly (`opus-encdec`, ENGINES.md), with the Ogg pages written here (RFC 7845), since the
 * package's own writer sets a fixed 80 ms pre-skip and never trims the end.
 *
 *  - Opus takes 8/12/16/24/48 kHz: espeak's 22 050 Hz is resampled to 24 kHz (20 ms = 441 in,
 *    480 out; the speex resampler at the package's default quality 3);
 *  - pre-skip = the encoder's lookahead plus the resampler's delay, both at 48 kHz: a decoder
 *    drops them, so the first sample it gives is the PCM's first;
 *  - the last page's granule position = pre-skip + the PCM's length at 48 kHz: a decoder drops
 *    the final frame's padding (end trimming), so the chunk decodes to exactly its duration.
 *
 * For the encoder benchmark only (tests/bench/encoder-bench.ts): Alma does not ship it.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface OpusModule {
  isReady: boolean;
  onready: (() => void) | null;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _opus_encoder_create(rate: number, channels: number, application: number, error: number): number;
  _opus_encoder_ctl(encoder: number, request: number, varargs: number): number;
  _opus_encoder_destroy(encoder: number): void;
  _opus_encode_float(encoder: number, pcm: number, frame: number, out: number, max: number): number;
  _speex_resampler_init(
    channels: number,
    inRate: number,
    outRate: number,
    quality: number,
    error: number,
  ): number;
  _speex_resampler_destroy(resampler: number): void;
  _speex_resampler_process_interleaved_float(
    resampler: number,
    input: number,
    inLength: number,
    output: number,
    outLength: number,
  ): number;
}

/** libopus's `OPUS_APPLICATION_VOIP`: tuned for speech. */
export const OPUS_APPLICATION_VOIP = 2048;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_GET_LOOKAHEAD = 4027;
const OPUS_SET_SIGNAL = 4024;
const OPUS_SIGNAL_VOICE = 3001;

const ENCODE_RATE = 24_000;
const FRAME_MS = 20;
const RESAMPLE_QUALITY = 3;

let loaded: Promise<OpusModule> | null = null;

/** Loads and compiles the wasm module once (its first call is not part of any measure). */
export function loadOpus(): Promise<OpusModule> {
  loaded ??= new Promise((resolve) => {
    const module = require('opus-encdec/dist/libopus-encoder.wasm.js') as OpusModule;
    if (module.isReady) resolve(module);
    else module.onready = () => resolve(module);
  });
  return loaded;
}

export interface OggOpusOptions {
  kbps: number;
  /** libopus complexity 0–10 (10, its default, is the slowest and best). */
  complexity?: number;
}

export interface OggOpusStream {
  data: Uint8Array;
  /** Bytes of the two header pages (OpusHead, OpusTags) and of the data pages' headers. */
  headerBytes: number;
  /** Samples at 48 kHz a decoder drops at the start (pre-skip) and at the end (padding). */
  preSkip: number;
  endTrim: number;
}

/** Encodes `pcm` (mono, `sampleRate` Hz — one of 8–48 kHz) as one Ogg/Opus stream. */
export function encodeOggOpus(
  module: OpusModule,
  pcm: Int16Array,
  sampleRate: number,
  { kbps, complexity = 10 }: OggOpusOptions,
): OggOpusStream {
  const frameIn = (sampleRate * FRAME_MS) / 1000;
  const frameOut = (ENCODE_RATE * FRAME_MS) / 1000;
  if (!Number.isInteger(frameIn)) throw new Error(`${sampleRate} Hz has no whole ${FRAME_MS} ms frame`);
  const scratch = module._malloc(16);
  const encoder = module._opus_encoder_create(ENCODE_RATE, 1, OPUS_APPLICATION_VOIP, scratch);
  const resampler =
    sampleRate === ENCODE_RATE
      ? 0
      : module._speex_resampler_init(1, sampleRate, ENCODE_RATE, RESAMPLE_QUALITY, scratch);
  const input = module._malloc(frameIn * 4);
  const inLength = module._malloc(4);
  const frame = module._malloc(frameOut * 4);
  const outLength = module._malloc(4);
  const packet = module._malloc(4000);
  const ctl = (request: number, value: number) => {
    module.HEAP32[scratch >> 2] = value;
    module._opus_encoder_ctl(encoder, request, scratch);
  };
  try {
    ctl(OPUS_SET_BITRATE, kbps * 1000);
    ctl(OPUS_SET_COMPLEXITY, complexity);
    ctl(OPUS_SET_SIGNAL, OPUS_SIGNAL_VOICE);
    // A GET's vararg is a pointer to the answer.
    module.HEAP32[scratch >> 2] = scratch + 8;
    module._opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD, scratch);
    const lookahead = module.HEAP32[(scratch + 8) >> 2] ?? 0;
    const preSkip = (lookahead + resamplerDelay(sampleRate)) * (48_000 / ENCODE_RATE);
    const samples48k = Math.round((pcm.length * 48_000) / sampleRate);

    const packets: Uint8Array[] = [];
    // Frames until the encoded audio covers the pre-skip and the whole PCM (zeros after it).
    const frames = Math.ceil((preSkip + samples48k) / (48_000 / 1000) / FRAME_MS);
    for (let f = 0; f < frames; f++) {
      const heap = module.HEAPF32;
      const target = resampler ? input >> 2 : frame >> 2;
      for (let i = 0; i < frameIn; i++) heap[target + i] = (pcm[f * frameIn + i] ?? 0) / 32_768;
      if (resampler) {
        module.HEAP32[inLength >> 2] = frameIn;
        module.HEAP32[outLength >> 2] = frameOut;
        module._speex_resampler_process_interleaved_float(resampler, input, inLength, frame, outLength);
      }
      const length = module._opus_encode_float(encoder, frame, frameOut, packet, 4000);
      if (length < 0) throw new Error(`opus_encode_float failed (${length})`);
      packets.push(module.HEAPU8.slice(packet, packet + length));
    }
    const pages = new OggWriter();
    pages.add([opusHead(preSkip, sampleRate)], 0, 0x02);
    pages.add([opusTags()], 0, 0);
    const granule = preSkip + samples48k;
    for (let start = 0; start < packets.length; start += MAX_PACKETS_PER_PAGE) {
      const page = packets.slice(start, start + MAX_PACKETS_PER_PAGE);
      const last = start + MAX_PACKETS_PER_PAGE >= packets.length;
      const position = last ? granule : (start + page.length) * FRAME_MS * 48;
      pages.add(page, position, last ? 0x04 : 0);
    }
    const audioBytes = packets.reduce((n, p) => n + p.length, 0);
    return {
      data: pages.concat(),
      headerBytes: pages.bytes - audioBytes,
      preSkip,
      endTrim: frames * FRAME_MS * 48 - granule,
    };
  } finally {
    for (const pointer of [scratch, input, inLength, frame, outLength, packet]) module._free(pointer);
    module._opus_encoder_destroy(encoder);
    if (resampler) module._speex_resampler_destroy(resampler);
  }
}

/** The speex resampler's delay in output samples, found once per rate with an impulse. */
const delays = new Map<number, number>();
function resamplerDelay(sampleRate: number): number {
  if (sampleRate === ENCODE_RATE) return 0;
  const known = delays.get(sampleRate);
  if (known !== undefined) return known;
  throw new Error(`measureResamplerDelay(${sampleRate}) was not called`);
}

/**
 * Feeds the resampler a click and finds it in the output: the delay a decoder must skip, so
 * the stream's first sample is the PCM's first. Call once per input rate before encoding.
 */
export function measureResamplerDelay(module: OpusModule, sampleRate: number): number {
  const frameIn = (sampleRate * FRAME_MS) / 1000;
  const frameOut = (ENCODE_RATE * FRAME_MS) / 1000;
  const error = module._malloc(4);
  const resampler = module._speex_resampler_init(1, sampleRate, ENCODE_RATE, RESAMPLE_QUALITY, error);
  const input = module._malloc(frameIn * 4);
  const output = module._malloc(frameOut * 4);
  const inLength = module._malloc(4);
  const outLength = module._malloc(4);
  try {
    const out: number[] = [];
    for (let f = 0; f < 3; f++) {
      module.HEAPF32.fill(0, input >> 2, (input >> 2) + frameIn);
      if (f === 0) module.HEAPF32[input >> 2] = 1;
      module.HEAP32[inLength >> 2] = frameIn;
      module.HEAP32[outLength >> 2] = frameOut;
      module._speex_resampler_process_interleaved_float(resampler, input, inLength, output, outLength);
      out.push(...module.HEAPF32.subarray(output >> 2, (output >> 2) + frameOut));
    }
    let peak = 0;
    out.forEach((v, i) => {
      if (v > (out[peak] ?? 0)) peak = i;
    });
    delays.set(sampleRate, peak);
    return peak;
  } finally {
    for (const pointer of [error, input, output, inLength, outLength]) module._free(pointer);
    module._speex_resampler_destroy(resampler);
  }
}

/** 20 ms packets of ≤ 255 bytes take one lacing value each; 100 per page keeps pages ~2 s. */
const MAX_PACKETS_PER_PAGE = 100;

function opusHead(preSkip: number, inputRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const view = new DataView(head.buffer);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1; // version
  head[9] = 1; // channels
  view.setUint16(10, preSkip, true);
  view.setUint32(12, inputRate, true);
  view.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family 0: mono or stereo
  return head;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode('alma');
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  const view = new DataView(tags.buffer);
  tags.set(new TextEncoder().encode('OpusTags'), 0);
  view.setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  view.setUint32(12 + vendor.length, 0, true); // no user comments
  return tags;
}

/** Ogg pages (RFC 3533) of one logical stream, each packet completed on its page. */
class OggWriter {
  private readonly pages: Uint8Array[] = [];
  private sequence = 0;
  bytes = 0;

  add(packets: readonly Uint8Array[], granule: number, flags: number): void {
    const lacing: number[] = [];
    for (const p of packets) {
      for (let left = p.length; ; left -= 255) {
        lacing.push(Math.min(left, 255));
        if (left < 255) break;
      }
    }
    if (lacing.length > 255) throw new Error('too many packets for one Ogg page');
    const body = packets.reduce((n, p) => n + p.length, 0);
    const page = new Uint8Array(27 + lacing.length + body);
    const view = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
    page[5] = flags;
    view.setUint32(6, granule % 2 ** 32, true);
    view.setUint32(10, Math.floor(granule / 2 ** 32), true);
    view.setUint32(14, SERIAL, true);
    view.setUint32(18, this.sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let at = 27 + lacing.length;
    for (const p of packets) {
      page.set(p, at);
      at += p.length;
    }
    view.setUint32(22, crc32(page), true);
    this.pages.push(page);
    this.bytes += page.length;
  }

  concat(): Uint8Array {
    const out = new Uint8Array(this.bytes);
    let at = 0;
    for (const page of this.pages) {
      out.set(page, at);
      at += page.length;
    }
    return out;
  }
}

const SERIAL = 0x616c6d61; // "alma"

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, i) => {
  let r = i << 24;
  for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  return r >>> 0;
});

/** Ogg's CRC-32 (polynomial 0x04c11db7, no reflection, initial 0) with the CRC field zero. */
function crc32(page: Uint8Array): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}
