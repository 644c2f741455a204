import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferSource, EncodedPacketSink, Input, OGG, WEBM, type InputAudioTrack } from 'mediabunny';
import { OpusDecoder } from 'opus-decoder';

/**
 * Voice notes to 16 kHz mono PCM (SPEC.md V-2): webm/opus (Chrome) and ogg/opus (Firefox) with
 * npm-only packages (mediabunny demuxes, opus-decoder decodes straight to 16 kHz); MP4/AAC
 * (Safari) through Debian's `ffmpeg` when it is on PATH. The container is recognised by its
 * magic bytes, never by the declared mime type alone.
 */
export const DECODE_SAMPLE_RATE = 16_000;
export const VOICE_NOTE_MAX_BYTES = 10 * 1024 * 1024;
export const VOICE_NOTE_MAX_MS = 10 * 60 * 1000;

export type AudioContainer = 'webm' | 'ogg' | 'mp4';

export interface DecodedAudio {
  container: AudioContainer;
  /** Mono samples in −1…1 at `sampleRate`. */
  pcm: Float32Array;
  sampleRate: typeof DECODE_SAMPLE_RATE;
  durationMs: number;
  /** The file extension the note is stored under. */
  extension: 'webm' | 'ogg' | 'm4a';
}

export type DecodeErrorCode = 'unsupported_audio' | 'invalid_audio' | 'payload_too_large' | 'audio_too_long';

export class AudioDecodeError extends Error {
  constructor(
    readonly code: DecodeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

/** The container by content: EBML (webm/matroska), `OggS`, or an ISO-BMFF `ftyp` box. */
export function sniffContainer(data: Uint8Array): AudioContainer | null {
  if (data.length >= 4 && data[0] === 0x1a && data[1] === 0x45 && data[2] === 0xdf && data[3] === 0xa3)
    return 'webm';
  if (data.length >= 4 && data[0] === 0x4f && data[1] === 0x67 && data[2] === 0x67 && data[3] === 0x53)
    return 'ogg';
  if (data.length >= 8 && data[4] === 0x66 && data[5] === 0x74 && data[6] === 0x79 && data[7] === 0x70)
    return 'mp4';
  return null;
}

export interface DecodeOptions {
  /** The `ffmpeg` binary for MP4/AAC; null: none (MP4 is then `unsupported_audio`). Default: `ffmpeg` on PATH. */
  ffmpeg?: string | null;
  maxBytes?: number;
  maxMs?: number;
}

function mixDown(channels: Float32Array[], length: number): Float32Array {
  if (channels.length === 1 && channels[0]) return channels[0].slice(0, length);
  const out = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) + (channel[i] ?? 0);
  const scale = 1 / Math.max(1, channels.length);
  for (let i = 0; i < length; i++) out[i] = (out[i] ?? 0) * scale;
  return out;
}

function concat(parts: Float32Array[], total: number): Float32Array {
  const out = new Float32Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function decodeOpus(data: Uint8Array, container: 'webm' | 'ogg', maxMs: number): Promise<Float32Array> {
  const input = new Input({ source: new BufferSource(data), formats: container === 'webm' ? [WEBM] : [OGG] });
  let track;
  try {
    track = await input.getPrimaryAudioTrack();
  } catch (error) {
    throw new AudioDecodeError('invalid_audio', `unreadable ${container}: ${(error as Error).message}`);
  }
  if (!track) throw new AudioDecodeError('invalid_audio', `no audio track in the ${container} file`);
  if (track.codec !== 'opus')
    throw new AudioDecodeError('unsupported_audio', `${container} with codec ${track.codec ?? 'unknown'}`);
  const { channels, preSkip } = await opusHeadOf(track);
  if (channels > 2) throw new AudioDecodeError('unsupported_audio', `${channels}-channel opus`);
  const decoder = new OpusDecoder({ sampleRate: DECODE_SAMPLE_RATE, channels, preSkip });
  await decoder.ready;
  const parts: Float32Array[] = [];
  let total = 0;
  const maxSamples = Math.ceil((maxMs / 1000) * DECODE_SAMPLE_RATE);
  try {
    const sink = new EncodedPacketSink(track);
    for await (const packet of sink.packets()) {
      const decoded = decoder.decodeFrame(packet.data);
      if (decoded.samplesDecoded === 0) continue;
      const mono = mixDown(decoded.channelData, decoded.samplesDecoded);
      parts.push(mono);
      total += mono.length;
      if (total > maxSamples) throw new AudioDecodeError('audio_too_long', 'longer than the limit');
    }
  } catch (error) {
    if (error instanceof AudioDecodeError) throw error;
    throw new AudioDecodeError('invalid_audio', `corrupt ${container}: ${(error as Error).message}`);
  } finally {
    decoder.free();
    input.dispose();
  }
  return concat(parts, total);
}

/** An Opus track's channel count and pre-skip, from its OpusHead (channels at 9, pre-skip LE u16 at 10). */
export async function opusHeadOf(track: InputAudioTrack): Promise<{ channels: number; preSkip: number }> {
  const config = await track.getDecoderConfig();
  const description = config?.description as ArrayBufferView | ArrayBuffer | undefined;
  const head = description ? toBytes(description) : null;
  if (!head || head.length < 19) return { channels: track.numberOfChannels, preSkip: 0 };
  return { channels: head[9] ?? 1, preSkip: (head[10] ?? 0) | ((head[11] ?? 0) << 8) };
}

function toBytes(source: ArrayBufferView | ArrayBufferLike): Uint8Array {
  if (source instanceof Uint8Array) return source;
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return new Uint8Array(source as ArrayBuffer);
}

/** MP4/AAC: Debian's ffmpeg, from a temp file (the moov box may sit at the end), to s16le. */
async function decodeWithFfmpeg(data: Uint8Array, ffmpeg: string, maxMs: number): Promise<Float32Array> {
  const dir = await mkdtemp(join(tmpdir(), 'alma-note-'));
  const file = join(dir, 'note.m4a');
  try {
    await writeFile(file, data);
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', file];
    args.push('-t', String(maxMs / 1000 + 1), '-vn', '-ac', '1', '-ar', String(DECODE_SAMPLE_RATE));
    args.push('-f', 's16le', 'pipe:1');
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
    if (code !== 0 || raw.length < 2)
      throw new AudioDecodeError(
        'invalid_audio',
        `ffmpeg could not decode it: ${stderr.trim().slice(0, 200)}`,
      );
    const samples = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.length / 2));
    const out = new Float32Array(samples.length);
    for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) / 32768;
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Is `name` runnable (answers `-version`)? Cached per name. */
const runnable = new Map<string, Promise<boolean>>();
export function hasBinary(name: string): Promise<boolean> {
  let known = runnable.get(name);
  if (!known) {
    known = new Promise((resolve) => {
      const child = spawn(name, ['-version'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
    });
    runnable.set(name, known);
  }
  return known;
}

/**
 * Decodes a voice note to 16 kHz mono. Throws AudioDecodeError: `payload_too_large` (over 10 MB),
 * `unsupported_audio` (not a known container, or MP4 without ffmpeg), `invalid_audio` (a known
 * container that does not decode: truncated, corrupt, no audio), `audio_too_long` (over 10 min).
 */
export async function decodeVoiceNote(data: Uint8Array, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const maxBytes = options.maxBytes ?? VOICE_NOTE_MAX_BYTES;
  const maxMs = options.maxMs ?? VOICE_NOTE_MAX_MS;
  if (data.length > maxBytes) throw new AudioDecodeError('payload_too_large', `${data.length} bytes`);
  const container = sniffContainer(data);
  if (!container) throw new AudioDecodeError('unsupported_audio', 'not webm, ogg or mp4 audio');
  let pcm: Float32Array;
  if (container === 'mp4') {
    const ffmpeg = options.ffmpeg === undefined ? 'ffmpeg' : options.ffmpeg;
    if (!ffmpeg || !(await hasBinary(ffmpeg)))
      throw new AudioDecodeError('unsupported_audio', 'MP4/AAC needs ffmpeg, which is not installed');
    pcm = await decodeWithFfmpeg(data, ffmpeg, maxMs);
  } else {
    pcm = await decodeOpus(data, container, maxMs);
  }
  const durationMs = Math.round((pcm.length / DECODE_SAMPLE_RATE) * 1000);
  if (durationMs > maxMs) throw new AudioDecodeError('audio_too_long', `${durationMs} ms`);
  if (pcm.length === 0) throw new AudioDecodeError('invalid_audio', 'no audio decoded');
  const extension = container === 'mp4' ? 'm4a' : container;
  return { container, pcm, sampleRate: DECODE_SAMPLE_RATE, durationMs, extension };
}

/** 16-bit PCM WAV of mono float samples (what transcription providers take). */
export function encodeWav(pcm: Float32Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(44 + pcm.length * 2);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) {
    const s = Math.max(-1, Math.min(1, pcm[i] ?? 0));
    view.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return out;
}
