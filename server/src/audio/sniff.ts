import { mpegFrame } from './containers/mpeg.ts';

/**
 * The container by its first bytes, never by a name or a declared type (SPEC.md V-2, VU-2):
 * RIFF/WAVE, `ID3` or an MPEG Layer III frame sync, `OggS`, the EBML magic (WebM/Matroska), an
 * ISO-BMFF `ftyp` box (MP4, M4A, Safari's recordings).
 */
export type AudioContainer = 'wav' | 'mp3' | 'ogg' | 'webm' | 'mp4';

const ascii = (data: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...data.subarray(at, at + length));

export function sniffAudio(data: Uint8Array): AudioContainer | null {
  if (data.length >= 12 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 4) === 'WAVE') return 'wav';
  if (data.length >= 4 && ascii(data, 0, 4) === 'OggS') return 'ogg';
  if (data.length >= 4 && data[0] === 0x1a && data[1] === 0x45 && data[2] === 0xdf && data[3] === 0xa3)
    return 'webm';
  if (data.length >= 8 && ascii(data, 4, 4) === 'ftyp') return 'mp4';
  if (data.length >= 10 && ascii(data, 0, 3) === 'ID3') return 'mp3';
  if (mpegFrame(data, 0) !== null) return 'mp3';
  return null;
}
