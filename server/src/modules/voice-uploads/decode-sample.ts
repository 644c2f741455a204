import type { VoiceUploadFormat } from '@alma/protocol';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AudioSampleSink,
  BufferSource,
  EncodedPacketSink,
  Input,
  MP4,
  OGG,
  type InputAudioTrack,
} from 'mediabunny';
import { OpusDecoder } from 'opus-decoder';
import { hasBinary, opusHeadOf } from '../../engines/audio-decode/decode.ts';
import { VoiceFileError, parseWav, walkMp3, walkMp4, walkOgg, wavSamples } from './audio-format.ts';

/**
 * A voice sample to mono PCM for the analysis (SPEC.md VU-3). What decodes with npm packages
 * alone: WAV (our own reader), Opus in Ogg or MP4 (mediabunny demuxes, opus-decoder decodes) and
 * PCM in MP4 (mediabunny). MP3, AAC and Vorbis need a decoder we do not ship: Debian's `ffmpeg`
 * when it is on PATH; without it the file is still checked whole (every frame, page or box) and
 * its duration read, but the level, pitch and rate stay unknown (`pcm: null`).
 */
export interface DecodedSample {
  /** Mono samples in −1…1, or null when this format could not be decoded here. */
  pcm: Float32Array | null;
  sampleRate: number;
  durationMs: number;
  /** The codec inside the container (`pcm`, `mp3`, `opus`, `aac`, `vorbis`…). */
  codec: string;
}

export interface DecodeSampleOptions {
  /** The `ffmpeg` binary; null: none. Default: `ffmpeg` on PATH. */
  ffmpeg?: string | null;
}

/** What the analysis reads at most: the first two minutes are plenty to characterise a voice. */
const MAX_ANALYSED_SECONDS = 120;
const OPUS_RATE = 16_000;
const FFMPEG_RATE = 16_000;

const damaged = (why: string) => new VoiceFileError('voice_file_damaged', why);

async function ffmpegOf(options: DecodeSampleOptions): Promise<string | null> {
  const name = options.ffmpeg === undefined ? 'ffmpeg' : options.ffmpeg;
  return name && (await hasBinary(name)) ? name : null;
}

async function decodeWithFfmpeg(data: Uint8Array, ffmpeg: string, extension: string): Promise<Float32Array> {
  const dir = await mkdtemp(join(tmpdir(), 'alma-voice-'));
  const file = join(dir, `sample.${extension}`);
  try {
    await writeFile(file, data);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-i',
      file,
      '-t',
      String(MAX_ANALYSED_SECONDS),
    ];
    args.push('-vn', '-ac', '1', '-ar', String(FFMPEG_RATE), '-f', 's16le', 'pipe:1');
    const chunks: Buffer[] = [];
    let stderr = '';
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', resolve);
    });
    const raw = Buffer.concat(chunks);
    if (code !== 0 || raw.length < 2) throw damaged(`ffmpeg: ${stderr.trim().slice(0, 200)}`);
    const samples = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.length / 2));
    return Float32Array.from(samples, (s) => s / 32768);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function joinParts(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function mono(channels: Float32Array[], length: number): Float32Array {
  const out = new Float32Array(length);
  for (const channel of channels)
    for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) + (channel[i] ?? 0) / channels.length;
  return out;
}

async function decodeOpusTrack(track: InputAudioTrack): Promise<Float32Array> {
  const { channels, preSkip } = await opusHeadOf(track);
  if (channels > 2) throw new VoiceFileError('voice_format_invalid', `${channels}-channel opus`);
  const decoder = new OpusDecoder({ sampleRate: OPUS_RATE, channels, preSkip });
  await decoder.ready;
  const parts: Float32Array[] = [];
  let total = 0;
  try {
    for await (const packet of new EncodedPacketSink(track).packets()) {
      const decoded = decoder.decodeFrame(packet.data);
      if (decoded.samplesDecoded === 0) continue;
      parts.push(mono(decoded.channelData, decoded.samplesDecoded));
      total += decoded.samplesDecoded;
      if (total > MAX_ANALYSED_SECONDS * OPUS_RATE) break;
    }
  } catch (error) {
    throw damaged(`opus: ${(error as Error).message}`);
  } finally {
    decoder.free();
  }
  return joinParts(parts);
}

async function decodePcmTrack(track: InputAudioTrack): Promise<Float32Array> {
  const parts: Float32Array[] = [];
  let total = 0;
  for await (const sample of new AudioSampleSink(track).samples()) {
    try {
      const channels: Float32Array[] = [];
      for (let c = 0; c < sample.numberOfChannels; c++) {
        const plane = new Float32Array(sample.numberOfFrames);
        sample.copyTo(plane, { planeIndex: c, format: 'f32-planar' });
        channels.push(plane);
      }
      parts.push(mono(channels, sample.numberOfFrames));
      total += sample.numberOfFrames;
    } finally {
      sample.close();
    }
    if (total > MAX_ANALYSED_SECONDS * track.sampleRate) break;
  }
  return joinParts(parts);
}

/** Ogg or MP4 through mediabunny: Opus and PCM decoded here, anything else by ffmpeg or not at all. */
async function decodeContainer(
  data: Uint8Array,
  format: 'ogg' | 'm4a',
  options: DecodeSampleOptions,
): Promise<DecodedSample> {
  const input = new Input({ source: new BufferSource(data), formats: format === 'ogg' ? [OGG] : [MP4] });
  try {
    let track: InputAudioTrack | null;
    try {
      track = await input.getPrimaryAudioTrack();
    } catch (error) {
      throw damaged(`unreadable ${format}: ${(error as Error).message}`);
    }
    if (!track) throw new VoiceFileError('voice_format_invalid', `no audio track in the ${format} file`);
    const codec = track.codec ?? 'unknown';
    let durationMs: number;
    try {
      durationMs = Math.round((await track.computeDuration()) * 1000);
    } catch (error) {
      throw damaged(`${format}: ${(error as Error).message}`);
    }
    if (codec === 'opus') {
      const pcm = await decodeOpusTrack(track);
      return { pcm, sampleRate: OPUS_RATE, durationMs, codec };
    }
    if (codec.startsWith('pcm-')) {
      const pcm = await decodePcmTrack(track);
      return { pcm, sampleRate: track.sampleRate, durationMs, codec };
    }
    const ffmpeg = await ffmpegOf(options);
    if (ffmpeg) {
      const pcm = await decodeWithFfmpeg(data, ffmpeg, format);
      return { pcm, sampleRate: FFMPEG_RATE, durationMs, codec };
    }
    return { pcm: null, sampleRate: track.sampleRate, durationMs, codec };
  } finally {
    input.dispose();
  }
}

/**
 * Checks the whole file and decodes what can be decoded. Throws VoiceFileError:
 * `voice_file_damaged` for a file cut short or corrupt, `voice_format_invalid` for one that is
 * no voice audio after all (no audio track, an unsupported WAV encoding).
 */
export async function decodeVoiceSample(
  data: Uint8Array,
  format: VoiceUploadFormat,
  options: DecodeSampleOptions = {},
): Promise<DecodedSample> {
  let decoded: DecodedSample;
  switch (format) {
    case 'wav': {
      const info = parseWav(data);
      const pcm = wavSamples(data, info);
      decoded = {
        pcm,
        sampleRate: info.sampleRate,
        durationMs: Math.round((pcm.length / info.sampleRate) * 1000),
        codec: 'pcm',
      };
      break;
    }
    case 'mp3': {
      const { durationMs } = walkMp3(data);
      const ffmpeg = await ffmpegOf(options);
      decoded = ffmpeg
        ? {
            pcm: await decodeWithFfmpeg(data, ffmpeg, 'mp3'),
            sampleRate: FFMPEG_RATE,
            durationMs,
            codec: 'mp3',
          }
        : { pcm: null, sampleRate: 0, durationMs, codec: 'mp3' };
      break;
    }
    case 'ogg':
      walkOgg(data);
      decoded = await decodeContainer(data, 'ogg', options);
      break;
    case 'm4a':
      walkMp4(data);
      decoded = await decodeContainer(data, 'm4a', options);
      break;
  }
  if (decoded.durationMs <= 0 || (decoded.pcm !== null && decoded.pcm.length === 0))
    throw damaged('no audio in the file');
  return decoded;
}
