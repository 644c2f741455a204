import type { ErrorCode } from '@alma/protocol';
import { checkOgg, oggPageCrc } from '../audio/containers/ogg.ts';
import { muxOpus, encodeOpusPackets } from './voice-note.ts';
import { m4aOpusOf, mp3Of, oggOpusOf, tone, wavOf } from './voice-samples.ts';

/**
 * Hostile audio, made in the test from real files (never committed): each one cut, padded,
 * corrupted or lying in its headers, with what a voice upload (SPEC.md VU-2) and a voice note
 * (V-2) must answer. Every entry is refused; nothing of it may be stored.
 */
export interface Refusal {
  status: number;
  code: ErrorCode;
}

export interface HostileAudio {
  /** What is wrong with it, for the test's name. */
  name: string;
  /** The name it is uploaded under (an audio name, so the content is what gets judged). */
  file: string;
  data: Uint8Array;
  upload: Refusal;
  note: Refusal;
}

const DAMAGED_UPLOAD: Refusal = { status: 422, code: 'voice_file_damaged' };
const DAMAGED_NOTE: Refusal = { status: 422, code: 'invalid_audio' };
const NOT_A_NOTE: Refusal = { status: 415, code: 'unsupported_audio' };

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};
const cut = (data: Uint8Array, fraction: number) => data.slice(0, Math.floor(data.length * fraction));
const junk = (length: number) => new Uint8Array(length).fill(0x41);

/** A copy with `edit` applied to its bytes through a DataView. */
function edited(data: Uint8Array, edit: (view: DataView, bytes: Uint8Array) => void): Uint8Array {
  const copy = data.slice();
  edit(new DataView(copy.buffer), copy);
  return copy;
}

// ── WAV ──────────────────────────────────────────────────────────────────────────────────────
// Our writer: RIFF size at 4, channels 22, rate 24, byte rate 28, block align 32, bits 34, data size 40.

function hostileWavs(wav: Uint8Array): HostileAudio[] {
  const entry = (name: string, data: Uint8Array): HostileAudio => ({
    name: `WAV ${name}`,
    file: 'muestra.wav',
    data,
    upload: DAMAGED_UPLOAD,
    note: NOT_A_NOTE,
  });
  return [
    entry('with bytes after the RIFF end', concat(wav, junk(64))),
    entry('cut short', cut(wav, 0.6)),
    entry(
      'declaring a 4 GB RIFF',
      edited(wav, (v) => v.setUint32(4, 0xfffffff0, true)),
    ),
    entry(
      'declaring a 2 GB data chunk',
      edited(wav, (v) => v.setUint32(40, 0x7ffffff0, true)),
    ),
    entry(
      'lying about its rate (byte rate disagrees)',
      edited(wav, (v) => v.setUint32(24, 48_000, true)),
    ),
    entry(
      'lying about its channels (block align disagrees)',
      edited(wav, (v) => v.setUint16(22, 2, true)),
    ),
    entry(
      'with no channels',
      edited(wav, (v) => v.setUint16(22, 0, true)),
    ),
    entry(
      'with a rate of 0 Hz',
      edited(wav, (v) => v.setUint32(24, 0, true)),
    ),
    entry(
      'whose data is not whole frames',
      edited(wav.slice(0, wav.length - 1), (v) => {
        v.setUint32(4, wav.length - 9, true);
        v.setUint32(40, wav.length - 45, true);
      }),
    ),
    entry(
      'with a header and no samples',
      edited(wav.slice(0, 44), (v) => {
        v.setUint32(4, 36, true);
        v.setUint32(40, 0, true);
      }),
    ),
  ];
}

// ── Ogg ──────────────────────────────────────────────────────────────────────────────────────

/** Rewrites one page (by index) and fixes its CRC, so that only the intended lie remains. */
function withPage(ogg: Uint8Array, index: number, edit: (view: DataView, at: number) => void): Uint8Array {
  const pages = checkOgg(ogg);
  const page = index < 0 ? pages.at(index) : pages[index];
  if (!page) throw new Error(`no page ${index}`);
  const copy = ogg.slice();
  const view = new DataView(copy.buffer);
  edit(view, page.offset);
  view.setUint32(page.offset + 22, oggPageCrc(copy.subarray(page.offset, page.offset + page.length)), true);
  return copy;
}

function withoutPage(ogg: Uint8Array, index: number): Uint8Array {
  const page = checkOgg(ogg)[index];
  if (!page) throw new Error(`no page ${index}`);
  return concat(ogg.subarray(0, page.offset), ogg.subarray(page.offset + page.length));
}

function hostileOggs(ogg: Uint8Array): HostileAudio[] {
  const entry = (name: string, data: Uint8Array): HostileAudio => ({
    name: `Ogg ${name}`,
    file: 'nota.ogg',
    data,
    upload: DAMAGED_UPLOAD,
    note: DAMAGED_NOTE,
  });
  const audioPage = checkOgg(ogg)[2];
  if (!audioPage) throw new Error('the Ogg fixture is too short');
  return [
    entry(
      'with a corrupted page CRC',
      edited(ogg, (_v, bytes) => {
        const at = audioPage.offset + audioPage.length - 5;
        bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      }),
    ),
    entry('cut short', cut(ogg, 0.6)),
    entry('with bytes after its last page', concat(ogg, junk(500))),
    entry(
      'whose stream never ends (no end-of-stream page)',
      withPage(ogg, -1, (v, at) => v.setUint8(at + 5, 0)),
    ),
    entry('with a page missing', withoutPage(ogg, 3)),
    entry(
      'lying about its length (the last granule says an hour)',
      withPage(ogg, -1, (v, at) => v.setBigInt64(at + 6, 48_000n * 3600n, true)),
    ),
    entry(
      'whose OpusHead declares no channels',
      withPage(ogg, 0, (v, at) => v.setUint8(at + 28 + 9, 0)),
    ),
    entry(
      'whose OpusHead declares 6 channels without a mapping',
      withPage(ogg, 0, (v, at) => v.setUint8(at + 28 + 9, 6)),
    ),
  ];
}

// ── WebM, MP4, MP3 ───────────────────────────────────────────────────────────────────────────

function hostileWebms(webm: Uint8Array): HostileAudio[] {
  const entry = (name: string, data: Uint8Array): HostileAudio => ({
    name: `WebM ${name}`,
    file: 'nota.webm',
    data,
    // WebM is not a voice-sample format (VU-2): refused by content before its structure.
    upload: { status: 415, code: 'voice_format_invalid' },
    note: DAMAGED_NOTE,
  });
  return [
    // mediabunny 1.61 loops forever on this one (resync over the last 8 bytes): it must never reach it.
    entry('with bytes after its last cluster', concat(webm, junk(500))),
    entry('cut short', cut(webm, 0.6)),
    entry(
      'whose EBML header declares 1 GB',
      edited(webm, (v) => v.setUint32(4, 0x08000000 | 0x0fffffff, false)),
    ),
  ];
}

function hostileMp4s(m4a: Uint8Array): HostileAudio[] {
  const entry = (name: string, data: Uint8Array): HostileAudio => ({
    name: `MP4 ${name}`,
    file: 'nota.m4a',
    data,
    upload: DAMAGED_UPLOAD,
    note: DAMAGED_NOTE,
  });
  const ftypSize = new DataView(m4a.buffer, m4a.byteOffset).getUint32(0, false);
  return [
    entry('cut short', cut(m4a, 0.6)),
    entry(
      'whose second box declares 4 GB',
      edited(m4a, (v) => v.setUint32(ftypSize, 0xfffffff0, false)),
    ),
    entry(
      'without its moov box',
      edited(m4a, (_v, bytes) => {
        const text = new TextDecoder('latin1').decode(bytes);
        const at = text.lastIndexOf('moov');
        bytes.set(new TextEncoder().encode('free'), at);
      }),
    ),
  ];
}

function hostileMp3s(mp3: Uint8Array): HostileAudio[] {
  const entry = (name: string, data: Uint8Array): HostileAudio => ({
    name: `MP3 ${name}`,
    file: 'muestra.mp3',
    data,
    upload: DAMAGED_UPLOAD,
    note: NOT_A_NOTE,
  });
  return [
    entry('cut short', cut(mp3, 0.6)),
    entry('with bytes after its last frame', concat(mp3, junk(500))),
  ];
}

/** The whole corpus, from one second of a voice-like tone in each format. */
export async function hostileAudioCorpus(): Promise<HostileAudio[]> {
  const pcm = tone({ f0: 200, seconds: 1.5, burstsPerSecond: 4 });
  const at48k = tone({ f0: 200, seconds: 1.5, burstsPerSecond: 4, sampleRate: 48_000 });
  const webm = await muxOpus(await encodeOpusPackets(at48k), 'webm');
  return [
    ...hostileWavs(wavOf(pcm, 16_000)),
    ...hostileOggs(await oggOpusOf(pcm)),
    ...hostileWebms(webm),
    ...hostileMp4s(await m4aOpusOf(pcm)),
    ...hostileMp3s(mp3Of(pcm)),
    {
      name: 'text named like audio',
      file: 'nota.ogg',
      data: new TextEncoder().encode('esto no es audio, es texto con nombre de nota de voz '.repeat(20)),
      upload: { status: 415, code: 'voice_format_invalid' },
      note: NOT_A_NOTE,
    },
  ];
}
