import { damaged, unsupported } from '../errors.ts';
import { readPcmSample } from '../pcm.ts';

/**
 * RIFF/WAVE, read by hand (it is a header and samples): the one WAV reader of the server.
 * Strict for uploads — the RIFF size is the file's size (bytes after its end are refused, SPEC.md
 * VU-2), every chunk fits, and the format chunk agrees with itself and with the data (block align =
 * channels × sample bytes, byte rate = rate × block align, whole frames). Lenient for a speech
 * provider's answer, which may be streamed with a placeholder size (0 or 0xFFFFFFFF): the data then
 * runs to the end of the file.
 */
export interface WavInfo {
  /** 1 integer PCM, 3 IEEE float (WAVE_FORMAT_EXTENSIBLE resolved to its sub-format). */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataOffset: number;
  dataLength: number;
}

const MAX_CHANNELS = 8;
const MIN_RATE = 4000;
const MAX_RATE = 192_000;
const PLACEHOLDER_SIZES = new Set([0, 0xffffffff]);

const ascii = (data: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...data.subarray(at, at + length));

type Fmt = Omit<WavInfo, 'dataOffset' | 'dataLength'> & { blockAlign: number; byteRate: number };

function readFmt(view: DataView, body: number, size: number): Fmt {
  if (size < 16) throw damaged(`fmt chunk of ${size} bytes (16 at least)`);
  let format = view.getUint16(body, true);
  // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes.
  if (format === 0xfffe && size >= 40) format = view.getUint16(body + 24, true);
  return {
    format,
    channels: view.getUint16(body + 2, true),
    sampleRate: view.getUint32(body + 4, true),
    byteRate: view.getUint32(body + 8, true),
    blockAlign: view.getUint16(body + 12, true),
    bitsPerSample: view.getUint16(body + 14, true),
  };
}

/** What we decode: 8/16/24/32-bit integer PCM, 32-bit float, 1–8 channels, 4–192 kHz. */
function checkFmt(fmt: Fmt, strict: boolean): void {
  const integer = fmt.format === 1 && [8, 16, 24, 32].includes(fmt.bitsPerSample);
  const float = fmt.format === 3 && fmt.bitsPerSample === 32;
  if (!integer && !float) throw unsupported(`WAV encoding ${fmt.format} at ${fmt.bitsPerSample} bits`);
  if (fmt.channels === 0) throw damaged('the WAV header declares no channels');
  if (fmt.channels > MAX_CHANNELS) throw unsupported(`${fmt.channels} channels`);
  if (fmt.sampleRate === 0) throw damaged('the WAV header declares a rate of 0 Hz');
  if (fmt.sampleRate < MIN_RATE || fmt.sampleRate > MAX_RATE) throw unsupported(`${fmt.sampleRate} Hz`);
  if (!strict) return;
  const blockAlign = fmt.channels * (fmt.bitsPerSample / 8);
  if (fmt.blockAlign !== blockAlign)
    throw damaged(`block align ${fmt.blockAlign}, but ${fmt.channels} channels of ${fmt.bitsPerSample} bits`);
  if (fmt.byteRate !== fmt.sampleRate * blockAlign)
    throw damaged(`byte rate ${fmt.byteRate}, but ${fmt.sampleRate} Hz × ${blockAlign} bytes`);
}

/** The WAV's format and where its samples are; throws `invalid_audio`/`unsupported_audio`. */
export function parseWav(data: Uint8Array, { strict }: { strict: boolean }): WavInfo {
  if (data.length < 12 || ascii(data, 0, 4) !== 'RIFF' || ascii(data, 8, 4) !== 'WAVE')
    throw unsupported('not a RIFF/WAVE file');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const declared = view.getUint32(4, true);
  let end = 8 + declared;
  if (!strict) end = PLACEHOLDER_SIZES.has(declared) ? data.length : Math.min(end, data.length);
  else if (end > data.length) throw damaged(`the RIFF header says ${end} bytes, the file has ${data.length}`);
  else if (end < data.length) throw damaged(`${data.length - end} bytes after the end of the RIFF data`);
  let fmt: Fmt | null = null;
  let found: WavInfo | null = null;
  let offset = 12;
  while (offset + 8 <= end) {
    const id = ascii(data, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    const fits = body + size <= end;
    if (!fits && (strict || id !== 'data')) throw damaged(`chunk ${JSON.stringify(id)} runs past the end`);
    if (id === 'fmt ') {
      fmt = readFmt(view, body, Math.min(size, end - body));
      checkFmt(fmt, strict);
    } else if (id === 'data' && !found) {
      if (!fmt) throw damaged('the data chunk comes before the fmt chunk');
      const frameBytes = fmt.channels * (fmt.bitsPerSample / 8);
      let length = size;
      if (!strict && (PLACEHOLDER_SIZES.has(size) || !fits)) length = end - body;
      length -= strict ? 0 : length % frameBytes;
      if (length === 0) throw damaged('the data chunk holds no samples');
      if (strict && length % frameBytes !== 0)
        throw damaged(`${length} data bytes are not whole frames of ${frameBytes} bytes`);
      found = { ...fmt, dataOffset: body, dataLength: length };
      if (!strict) return found;
    }
    offset = body + size + (size % 2);
  }
  if (strict && offset !== end && offset !== end + 1)
    throw damaged(`${end - offset} stray bytes at the end of the RIFF data`);
  if (!found) throw damaged('no data chunk');
  return found;
}

/** The samples of a parsed WAV, its channels averaged to mono. */
export function wavSamples(data: Uint8Array, info: WavInfo): Float32Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const bytes = info.bitsPerSample / 8;
  const frameBytes = bytes * info.channels;
  const frames = Math.floor(info.dataLength / frameBytes);
  const isFloat = info.format === 3;
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const base = info.dataOffset + f * frameBytes;
    for (let c = 0; c < info.channels; c++) sum += readPcmSample(view, base + c * bytes, bytes, isFloat);
    out[f] = sum / info.channels;
  }
  return out;
}

/** A WAV's mono samples and rate (`strict`: an uploaded file; lenient: a provider's stream). */
export function readWav(
  data: Uint8Array,
  options: { strict: boolean },
): { pcm: Float32Array; sampleRate: number } {
  const info = parseWav(data, options);
  return { pcm: wavSamples(data, info), sampleRate: info.sampleRate };
}

/** 16-bit PCM WAV of mono float samples (what transcription providers take). */
export function encodeWav(pcm: Float32Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + pcm.length * 2);
  const view = new DataView(out.buffer);
  const tag = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  tag(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length * 2, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  tag(36, 'data');
  view.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) {
    const s = Math.max(-1, Math.min(1, pcm[i] ?? 0));
    view.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return out;
}
