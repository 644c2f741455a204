import { spawn } from 'node:child_process';
import { BufferTarget, EncodedAudioPacketSource, MkvOutputFormat, Output } from 'mediabunny';
import { damaged } from './errors.ts';
import type { AudioTrack } from './track.ts';

/**
 * The fallback decoder for codecs npm has no decoder for (AAC, MP3, Vorbis…): Debian's `ffmpeg`.
 * It never reads the uploaded file: mediabunny has demuxed it (after our structure checks), and
 * its packets are remuxed into a Matroska stream we write, piped to ffmpeg's stdin with the input
 * format forced and only the `pipe` protocol allowed — so ffmpeg's demuxers and protocols (HLS
 * playlists, concat lists) never see user bytes, and no temp file is written. Each run is bounded:
 * at most MAX_PROCESSES at once, a wall-clock limit, and the PCM it may answer.
 */
const MAX_PROCESSES = 2;
/** A run may take this long, plus PER_SECOND_MS per second of audio (ffmpeg decodes AAC at ~500× real time). */
const BASE_TIMEOUT_MS = 15_000;
const PER_SECOND_MS = 50;

const known = new Map<string, Promise<boolean>>();

/** Is `binary` runnable (answers `-version`)? Asked once per name. */
export function hasFfmpeg(binary: string): Promise<boolean> {
  let answer = known.get(binary);
  if (!answer) {
    answer = new Promise((resolve) => {
      const child = spawn(binary, ['-version'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
    });
    known.set(binary, answer);
  }
  return answer;
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/** The track's packets up to `maxSeconds`, in a Matroska stream of our own making. */
async function remux(track: AudioTrack, maxSeconds: number): Promise<{ mkv: Uint8Array; complete: boolean }> {
  const target = new BufferTarget();
  const output = new Output({ format: new MkvOutputFormat(), target });
  const source = new EncodedAudioPacketSource(track.track.codec ?? 'aac');
  output.addAudioTrack(source);
  await output.start();
  const decoderConfig = (await track.track.getDecoderConfig()) ?? undefined;
  let first = true;
  let complete = true;
  for await (const packet of track.packets()) {
    if (packet.timestamp >= maxSeconds) {
      complete = false;
      break;
    }
    await source.add(packet, first && decoderConfig ? { decoderConfig } : undefined);
    first = false;
  }
  source.close();
  await output.finalize();
  if (!target.buffer || first) throw damaged('no audio packet to decode');
  return { mkv: new Uint8Array(target.buffer), complete };
}

/**
 * Decodes the track with ffmpeg to mono float PCM at `sampleRate`, at most `maxSeconds` of it.
 * A failure, or no answer within the time limit, makes the file `invalid_audio`.
 */
export async function decodeWithFfmpeg(
  track: AudioTrack,
  options: { ffmpeg: string; sampleRate: number; maxSeconds: number },
): Promise<{ pcm: Float32Array; complete: boolean }> {
  const { mkv, complete } = await remux(track, options.maxSeconds);
  const maxBytes = Math.ceil((options.maxSeconds + 1) * options.sampleRate) * 4;
  const timeoutMs = Math.round(BASE_TIMEOUT_MS + options.maxSeconds * PER_SECOND_MS);
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'pipe'];
  args.push('-f', 'matroska', '-i', 'pipe:0', '-map', '0:a:0', '-ac', '1', '-ar', String(options.sampleRate));
  args.push('-f', 'f32le', 'pipe:1');
  const release = await slot();
  try {
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const child = spawn(options.ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let bytes = 0;
      let stderr = '';
      let failure: string | null = null;
      const stop = (why: string) => {
        failure ??= why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop(`no answer within ${timeoutMs} ms`), timeoutMs);
      child.stdout.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) stop('more audio than the stream declares');
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString();
      });
      child.stdin.on('error', () => undefined); // ffmpeg may stop reading first: its exit code tells
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (failure) reject(damaged(`ffmpeg: ${failure}`));
        else if (code !== 0) reject(damaged(`ffmpeg could not decode it: ${stderr.trim().slice(0, 200)}`));
        else resolve(Buffer.concat(chunks));
      });
      child.stdin.end(mkv);
    });
    const pcm = new Float32Array(Math.floor(raw.length / 4));
    new Uint8Array(pcm.buffer).set(raw.subarray(0, pcm.length * 4));
    return { pcm, complete };
  } finally {
    release();
  }
}
