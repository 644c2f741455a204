import type { VoiceUploadFormat } from '@alma/protocol';
import { readPcmSample } from '../../lib/pcm.ts';

/**
 * Voice samples by content (SPEC.md VU-2): the first bytes name the format, then the whole file's
 * structure is walked so a truncated or padded file is caught before anything is stored. Written
 * here rather than left to a demuxer because demuxers read as much as they can and say nothing
 * about a file cut short.
 */

export class VoiceFileError extends Error {
  constructor(
    readonly code: 'voice_format_invalid' | 'voice_file_damaged',
    message: string,
  ) {
    super(message);
    this.name = 'VoiceFileError';
  }
}

const damaged = (why: string) => new VoiceFileError('voice_file_damaged', why);

const ascii = (data: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...data.subarray(at, at + length));

/** The format the bytes are, or null: RIFF/WAVE, ID3 or an MPEG audio frame, an ISO-BMFF `ftyp`, `OggS`. */
export function sniffVoiceFormat(data: Uint8Array): VoiceUploadFormat | null {
  if (data.length >= 12 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 4) === 'WAVE') return 'wav';
  if (data.length >= 4 && ascii(data, 0, 4) === 'OggS') return 'ogg';
  if (data.length >= 12 && ascii(data, 4, 4) === 'ftyp') return 'm4a';
  if (data.length >= 10 && ascii(data, 0, 3) === 'ID3') return 'mp3';
  if (data.length >= 4 && mpegFrame(data, 0) !== null) return 'mp3';
  return null;
}

// ── WAV ────────────────────────────────────────────────────────────────────────────────────────

export interface WavInfo {
  format: number;
  channels: number;
  sampleRate: number;
  bits: number;
  dataOffset: number;
  dataLength: number;
}

/** Walks the RIFF chunks; a `data` chunk (or the RIFF size) that runs past the end is a cut file. */
export function parseWav(data: Uint8Array): WavInfo {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd > data.length) throw damaged(`RIFF says ${riffEnd} bytes, the file has ${data.length}`);
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength'> | null = null;
  let offset = 12;
  while (offset + 8 <= riffEnd) {
    const id = ascii(data, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (body + size > riffEnd) throw damaged(`chunk ${JSON.stringify(id)} runs past the end`);
    if (id === 'fmt ') {
      if (size < 16) throw damaged('short fmt chunk');
      let format = view.getUint16(body, true);
      if (format === 0xfffe && size >= 26) format = view.getUint16(body + 24, true);
      fmt = {
        format,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw damaged('data before fmt');
      const supported =
        (fmt.format === 1 && [8, 16, 24, 32].includes(fmt.bits)) || (fmt.format === 3 && fmt.bits === 32);
      if (!supported || fmt.channels < 1 || fmt.sampleRate < 4000 || fmt.sampleRate > 192_000)
        throw new VoiceFileError('voice_format_invalid', `WAV format ${fmt.format}/${fmt.bits} bit`);
      if (size === 0) throw damaged('empty data chunk');
      return { ...fmt, dataOffset: body, dataLength: size };
    }
    offset = body + size + (size % 2);
  }
  throw damaged('no data chunk');
}

/** Mono float samples of a parsed WAV (channels averaged). */
export function wavSamples(data: Uint8Array, info: WavInfo): Float32Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const bytes = info.bits / 8;
  const frameBytes = bytes * info.channels;
  const frames = Math.floor(info.dataLength / frameBytes);
  const out = new Float32Array(frames);
  const read = (at: number): number => readPcmSample(view, at, bytes, info.format === 3);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const base = info.dataOffset + f * frameBytes;
    for (let c = 0; c < info.channels; c++) sum += read(base + c * bytes);
    out[f] = sum / info.channels;
  }
  return out;
}

// ── MP3 ────────────────────────────────────────────────────────────────────────────────────────

// prettier-ignore
const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
// prettier-ignore
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

interface MpegFrame {
  length: number;
  sampleRate: number;
  samples: number;
}

/** An MPEG-1/2/2.5 Layer III frame header at `at`, or null. */
export function mpegFrame(data: Uint8Array, at: number): MpegFrame | null {
  if (at + 4 > data.length) return null;
  const b1 = data[at + 1] ?? 0;
  const b2 = data[at + 2] ?? 0;
  if (data[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
  const layer = (b1 >> 1) & 3; // 1 = Layer III
  if (version === 1 || layer !== 1) return null;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex] ?? 0;
  const sampleRate = SAMPLE_RATES[version]?.[rateIndex] ?? 0;
  const padding = (b2 >> 1) & 1;
  const samples = version === 3 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding;
  return { length, sampleRate, samples };
}

/**
 * Walks every frame from the first (after an ID3v2 tag) to the end: a frame that runs past the
 * end, or bytes that are no frame and no trailing tag (ID3v1 `TAG`, `APETAGEX`, `LYRICS`), make
 * the file damaged. Answers the duration the frames add up to.
 */
export function walkMp3(data: Uint8Array): { durationMs: number; frames: number } {
  let offset = 0;
  if (ascii(data, 0, 3) === 'ID3') {
    const size = ((data[6] ?? 0) << 21) | ((data[7] ?? 0) << 14) | ((data[8] ?? 0) << 7) | (data[9] ?? 0);
    const footer = ((data[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
    offset = 10 + size + footer;
    if (offset >= data.length) throw damaged('ID3 tag and no audio');
    // Some writers pad after the tag: skip zeros up to the first frame.
    while (offset < data.length && data[offset] === 0) offset++;
  }
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  while (offset < data.length) {
    const frame = mpegFrame(data, offset);
    if (!frame) {
      const rest = ascii(data, offset, 8);
      if (rest.startsWith('TAG') || rest.startsWith('APETAGEX') || rest.startsWith('LYRICS')) break;
      if (frames === 0) throw new VoiceFileError('voice_format_invalid', 'no MPEG audio frame');
      throw damaged(`no frame at byte ${offset} of ${data.length}`);
    }
    if (offset + frame.length > data.length) throw damaged(`frame ${frames} cut at the end`);
    frames++;
    samples += frame.samples;
    sampleRate = frame.sampleRate;
    offset += frame.length;
  }
  if (frames === 0 || sampleRate === 0) throw damaged('no MPEG audio frame');
  return { durationMs: Math.round((samples / sampleRate) * 1000), frames };
}

// ── Ogg ────────────────────────────────────────────────────────────────────────────────────────

/** Walks the Ogg pages: each must be whole, and the last must close its stream (EOS). */
export function walkOgg(data: Uint8Array): void {
  let offset = 0;
  let last = 0;
  let pages = 0;
  while (offset < data.length) {
    if (offset + 27 > data.length || ascii(data, offset, 4) !== 'OggS')
      throw damaged(`no page at byte ${offset}`);
    const segments = data[offset + 26] ?? 0;
    const tableEnd = offset + 27 + segments;
    if (tableEnd > data.length) throw damaged('page header cut');
    let body = 0;
    for (let i = offset + 27; i < tableEnd; i++) body += data[i] ?? 0;
    if (tableEnd + body > data.length) throw damaged(`page ${pages} cut at the end`);
    last = data[offset + 5] ?? 0;
    offset = tableEnd + body;
    pages++;
  }
  if (pages === 0) throw damaged('no Ogg page');
  if ((last & 0x04) === 0) throw damaged('the stream does not end (no end-of-stream page)');
}

// ── ISO-BMFF (M4A) ─────────────────────────────────────────────────────────────────────────────

/** Walks the top-level boxes: each must fit in the file, and `moov` must be there. */
export function walkMp4(data: Uint8Array): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  let moov = false;
  while (offset < data.length) {
    if (offset + 8 > data.length) throw damaged('box header cut');
    let size = view.getUint32(offset, false);
    const type = ascii(data, offset + 4, 4);
    if (size === 1) {
      if (offset + 16 > data.length) throw damaged('box header cut');
      size = Number(view.getBigUint64(offset + 8, false));
    } else if (size === 0) {
      size = data.length - offset;
    }
    if (size < 8) throw damaged(`bad box size at byte ${offset}`);
    if (offset + size > data.length) throw damaged(`box ${JSON.stringify(type)} cut at the end`);
    if (type === 'moov') moov = true;
    offset += size;
  }
  if (!moov) throw damaged('no moov box');
}
