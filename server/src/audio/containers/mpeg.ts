import { declaredFrameCount } from '../../engines/speech/mp3-info.ts';
import { damaged, unsupported } from '../errors.ts';

/**
 * MPEG-1/2/2.5 Layer III (MP3), checked frame by frame: demuxers resynchronise over garbage and
 * accept a last frame cut short, so a padded or truncated file would otherwise pass. An ID3v2 tag
 * may open the file (then zero padding); only ID3v1, APE or Lyrics3 tags may follow the last frame.
 */
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

const ascii = (data: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...data.subarray(at, at + length));

/** A Layer III frame header at `at`, or null. */
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

/** Bytes of the ID3v2 tag that opens the file (0 without one). */
export function id3v2Length(data: Uint8Array): number {
  if (data.length < 10 || ascii(data, 0, 3) !== 'ID3') return 0;
  const size = ((data[6] ?? 0) << 21) | ((data[7] ?? 0) << 14) | ((data[8] ?? 0) << 7) | (data[9] ?? 0);
  const footer = ((data[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** Walks every frame to the end; answers the duration the frames add up to. */
export function checkMp3(data: Uint8Array): { durationMs: number; frames: number } {
  let offset = id3v2Length(data);
  if (offset >= data.length) throw damaged('an ID3 tag and no audio');
  // Some writers pad after the tag: skip zeros up to the first frame.
  while (offset < data.length && data[offset] === 0) offset++;
  // A Xing/Info frame (LAME's, ours: S-8) opens the stream: silent, and it says how many frames follow.
  const declared = mpegFrame(data, offset) ? declaredFrameCount(data, offset) : null;
  let tagFrames = declared === null ? 0 : 1;
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  while (offset < data.length) {
    const frame = mpegFrame(data, offset);
    if (!frame) {
      const rest = ascii(data, offset, 8);
      if (rest.startsWith('TAG') || rest.startsWith('APETAGEX') || rest.startsWith('LYRICS')) break;
      if (frames === 0) throw unsupported('no MPEG audio frame');
      throw damaged(`no frame at byte ${offset} of ${data.length}`);
    }
    if (offset + frame.length > data.length) throw damaged(`frame ${frames} is cut at the end`);
    if (sampleRate !== 0 && frame.sampleRate !== sampleRate)
      throw damaged(`frame ${frames} changes the rate from ${sampleRate} to ${frame.sampleRate} Hz`);
    sampleRate = frame.sampleRate;
    offset += frame.length;
    if (tagFrames > 0) {
      tagFrames--;
      continue;
    }
    frames++;
    samples += frame.samples;
  }
  if (frames === 0) throw damaged('no MPEG audio frame');
  // Writers differ on whether the count includes the tag frame itself: one frame of slack.
  if (declared !== null && frames + 1 < declared) {
    throw damaged(`cut short: ${frames} of the ${declared} frames its header declares`);
  }
  return { durationMs: Math.round((samples / sampleRate) * 1000), frames };
}
