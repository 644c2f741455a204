import { checkWebm } from './containers/ebml.ts';
import { checkMp4 } from './containers/isobmff.ts';
import { checkMp3 } from './containers/mpeg.ts';
import { checkOgg } from './containers/ogg.ts';
import { parseWav, wavSamples } from './containers/riff.ts';
import { AudioDecodeError, damaged, unsupported } from './errors.ts';
import { decodeWithFfmpeg, hasFfmpeg } from './ffmpeg.ts';
import { decodeOpusTrack } from './opus.ts';
import { resample } from './pcm.ts';
import { sniffAudio, type AudioContainer } from './sniff.ts';
import { decodePcmTrack, withAudioTrack, type AudioTrack } from './track.ts';

/**
 * Audio in, mono PCM out — the one path for voice notes (SPEC.md V-2), voice uploads (VU-2, VU-3)
 * and anything else that takes a user's audio:
 *  1. sniff the container by its bytes;
 *  2. check its whole structure (RIFF chunks and format, Ogg pages and CRCs, MPEG frames, MP4
 *     boxes, EBML elements): cut, padded, corrupt and lying files stop here;
 *  3. demux with mediabunny;
 *  4. decode: PCM and Opus in-process (opus-decoder), anything else with ffmpeg when installed;
 *  5. resample to the rate asked for, and check that the audio is as long as the container says.
 */
export interface DecodeAudioOptions {
  /** The containers this caller takes; anything else is `unsupported_audio`. */
  accept: readonly AudioContainer[];
  /** The rate of the answer; default: the stream's own. */
  sampleRate?: number;
  /** Larger files are `payload_too_large`. */
  maxBytes?: number;
  /** Longer audio is `audio_too_long` (measured while decoding: decoding stops just past it). */
  maxMs?: number;
  /** Decode only the beginning (the analysis of a long sample); the duration stays the whole file's. */
  decodeMs?: number;
  /** The `ffmpeg` binary; null: none. Default: `ffmpeg` on PATH. */
  ffmpeg?: string | null;
  /** A codec only ffmpeg decodes, without ffmpeg: refuse it (`unsupported_audio`) or answer `pcm: null`. */
  undecodable: 'refuse' | 'describe';
}

export interface DecodedAudio {
  container: AudioContainer;
  /** `pcm` for WAV; otherwise mediabunny's codec name (`opus`, `aac`, `mp3`, `vorbis`, `pcm-s16`…). */
  codec: string;
  /** Mono samples in −1…1 at `sampleRate`; null when no decoder here reads the codec. */
  pcm: Float32Array | null;
  sampleRate: number;
  durationMs: number;
  /** What decoded it. */
  decoder: 'pcm' | 'opus' | 'ffmpeg' | null;
}

/** Nothing decodes more than an hour, whatever the caller allows. */
const MAX_DECODE_MS = 3_600_000;
/** Decoded audio may differ from the container's figure by the codec's priming and padding. */
const DURATION_SLACK_MS = 250;
const DURATION_SLACK_RATIO = 0.05;

interface Samples {
  pcm: Float32Array | null;
  sampleRate: number;
  complete: boolean;
  decoder: DecodedAudio['decoder'];
}

export async function decodeAudio(data: Uint8Array, options: DecodeAudioOptions): Promise<DecodedAudio> {
  try {
    return await decode(data, options);
  } catch (error) {
    // Whatever else a decoder throws on these bytes, the file is what cannot be read.
    if (error instanceof AudioDecodeError) throw error;
    throw damaged(`the audio cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function decode(data: Uint8Array, options: DecodeAudioOptions): Promise<DecodedAudio> {
  if (options.maxBytes !== undefined && data.length > options.maxBytes)
    throw new AudioDecodeError('payload_too_large', `${data.length} bytes`);
  if (data.length === 0) throw damaged('the file is empty');
  const container = sniffAudio(data);
  if (!container || !options.accept.includes(container))
    throw unsupported(`${container ?? 'unknown content'}: not one of ${options.accept.join(', ')}`);
  // Decode past the limit by a second so that "too long" is measured, never guessed.
  const maxSeconds =
    Math.min(options.decodeMs ?? MAX_DECODE_MS, (options.maxMs ?? MAX_DECODE_MS) + 1000) / 1000;
  let codec: string;
  let declaredMs: number;
  let samples: Samples;
  if (container === 'wav') {
    const info = parseWav(data, { strict: true });
    const frameBytes = (info.channels * info.bitsPerSample) / 8;
    const frames = info.dataLength / frameBytes;
    const kept = Math.min(frames, Math.ceil(maxSeconds * info.sampleRate));
    const pcm = wavSamples(data, { ...info, dataLength: kept * frameBytes });
    codec = 'pcm';
    declaredMs = (frames / info.sampleRate) * 1000;
    samples = { pcm, sampleRate: info.sampleRate, complete: kept === frames, decoder: 'pcm' };
  } else {
    const declared = checkStructure(container, data);
    ({ codec, declaredMs, samples } = await withAudioTrack(data, container, async (track) => ({
      codec: track.codec,
      declaredMs: declared(track),
      samples: await decodeTrack(track, options, maxSeconds),
    })));
  }
  let { pcm, sampleRate } = samples;
  if (pcm && options.sampleRate && sampleRate !== options.sampleRate) {
    pcm = resample(pcm, sampleRate, options.sampleRate);
    sampleRate = options.sampleRate;
  }
  const decodedMs = pcm ? (pcm.length / sampleRate) * 1000 : null;
  if (decodedMs !== null && options.maxMs !== undefined && decodedMs > options.maxMs)
    throw new AudioDecodeError('audio_too_long', `more than ${options.maxMs} ms`);
  if (pcm && samples.complete && decodedMs !== null) {
    const slack = Math.max(DURATION_SLACK_MS, declaredMs * DURATION_SLACK_RATIO);
    if (Math.abs(decodedMs - declaredMs) > slack)
      throw damaged(
        `the file declares ${Math.round(declaredMs)} ms of audio and holds ${Math.round(decodedMs)} ms`,
      );
  }
  const durationMs = Math.round(pcm && samples.complete ? (decodedMs ?? 0) : declaredMs);
  if (durationMs <= 0 || pcm?.length === 0) throw damaged('no audio in the file');
  if (options.maxMs !== undefined && durationMs > options.maxMs)
    throw new AudioDecodeError('audio_too_long', `${durationMs} ms`);
  return { container, codec, pcm, sampleRate, durationMs, decoder: samples.decoder };
}

/**
 * The container checks, and what they tell of the length: MP3's frames add up to it; an Ogg
 * stream's last granule position declares it (in 48 kHz samples for Opus, RFC 7845 §4).
 */
function checkStructure(
  container: Exclude<AudioContainer, 'wav'>,
  data: Uint8Array,
): (track: AudioTrack) => number {
  switch (container) {
    case 'mp3': {
      const { durationMs } = checkMp3(data);
      return () => durationMs;
    }
    case 'ogg': {
      const granule = checkOgg(data).findLast((page) => page.granule !== -1n)?.granule ?? 0n;
      return (track) => (Number(granule) / (track.codec === 'opus' ? 48_000 : track.track.sampleRate)) * 1000;
    }
    case 'mp4':
      checkMp4(data);
      return (track) => track.declaredSeconds * 1000;
    case 'webm':
      checkWebm(data);
      return (track) => track.declaredSeconds * 1000;
  }
}

async function decodeTrack(
  track: AudioTrack,
  options: DecodeAudioOptions,
  maxSeconds: number,
): Promise<Samples> {
  if (track.codec === 'opus') {
    const sampleRate = options.sampleRate ?? 48_000;
    const decoded = await decodeOpusTrack(
      track.track,
      track.packets(),
      sampleRate,
      Math.ceil(maxSeconds * sampleRate),
    );
    return { ...decoded, sampleRate, decoder: 'opus' };
  }
  if (track.codec.startsWith('pcm-'))
    return { ...(await decodePcmTrack(track.track, maxSeconds)), decoder: 'pcm' };
  const binary = options.ffmpeg === undefined ? 'ffmpeg' : options.ffmpeg;
  if (binary && (await hasFfmpeg(binary))) {
    const sampleRate = options.sampleRate ?? track.track.sampleRate;
    const decoded = await decodeWithFfmpeg(track, { ffmpeg: binary, sampleRate, maxSeconds });
    return { ...decoded, sampleRate, decoder: 'ffmpeg' };
  }
  if (options.undecodable === 'refuse')
    throw unsupported(`${track.codec} audio needs ffmpeg, which is not installed on this server`);
  return { pcm: null, sampleRate: track.track.sampleRate, complete: false, decoder: null };
}
