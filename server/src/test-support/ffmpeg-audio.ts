import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavOf } from './voice-samples.ts';

/**
 * Real recordings for the audio tests, made at test time by Debian's `ffmpeg` (never committed):
 * the files browsers and phones actually send, with real codecs inside. `.ci/run` installs ffmpeg;
 * where it is missing, the tests that need it skip and say why (`needsFfmpeg`).
 */
export const FFMPEG_AVAILABLE = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;

/** Why a test that needs ffmpeg did not run. */
export const NO_FFMPEG_REASON = 'skipped: Debian ffmpeg is not on PATH (apt-get install ffmpeg)';

/** The test's name, with the reason it skips when ffmpeg is missing. */
export const needsFfmpeg = (name: string): string =>
  FFMPEG_AVAILABLE ? name : `${name} — ${NO_FFMPEG_REASON}`;

export type FfmpegRecording =
  /** AAC-LC in an iTunes-style M4A (`ftyp M4A`, moov at the end), 44.1 kHz mono, 96 kbps. */
  | 'm4a-aac'
  /**
   * A Safari voice note: MediaRecorder's `audio/mp4` is fragmented MP4 (`ftyp iso5`, an empty
   * moov, then a moof + mdat per ~1 s segment) holding AAC-LC, 48 kHz mono.
   */
  | 'safari-mp4'
  /** LAME MP3 with its ID3v2 tag and Xing/Info frame, 64 kbps. */
  | 'mp3'
  /** A Firefox voice note: Ogg/Opus, 48 kHz mono. */
  | 'ogg-opus'
  /**
   * A Chrome voice note: WebM/Opus, 48 kHz stereo, written as a live stream (unknown segment and
   * cluster sizes, no Duration, no Cues), as MediaRecorder does.
   */
  | 'chrome-webm';

const RECIPES: Record<FfmpegRecording, string[]> = {
  'm4a-aac': ['-c:a', 'aac', '-b:a', '96k', '-ac', '1', '-f', 'ipod', 'out'],
  'safari-mp4': [
    ...['-c:a', 'aac', '-b:a', '64k', '-ar', '48000', '-ac', '1', '-f', 'mp4'],
    ...['-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000', 'out'],
  ],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-ac', '1', '-f', 'mp3', 'out'],
  'ogg-opus': ['-c:a', 'libopus', '-b:a', '32k', '-ar', '48000', '-ac', '1', '-f', 'ogg', 'out'],
  // To a pipe: the muxer cannot seek back, so sizes stay unknown like a recorder's stream.
  'chrome-webm': ['-c:a', 'libopus', '-b:a', '64k', '-ar', '48000', '-ac', '2', '-f', 'webm', 'pipe:1'],
};

function run(args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg ${code}: ${err.trim()}`)),
    );
  });
}

/** `pcm` (mono, −1…1 at `sampleRate`) encoded by ffmpeg as `kind`. */
export async function recordWithFfmpeg(
  pcm: Float32Array,
  kind: FfmpegRecording,
  sampleRate = 44_100,
): Promise<Uint8Array> {
  if (!FFMPEG_AVAILABLE) throw new Error(NO_FFMPEG_REASON);
  const dir = await mkdtemp(join(tmpdir(), 'alma-ffmpeg-fixture-'));
  try {
    const input = join(dir, 'in.wav');
    const output = join(dir, 'out.bin');
    await writeFile(input, wavOf(pcm, sampleRate));
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-i', input];
    args.push(...RECIPES[kind].map((a) => (a === 'out' ? output : a)));
    const piped = await run(args);
    return new Uint8Array(kind === 'chrome-webm' ? piped : await readFile(output));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `data` decoded by ffmpeg to mono 16-bit PCM at `sampleRate` (no resampling when it is the
 * file's own rate): what a browser's decoder that reads the same headers plays.
 */
export async function decodeWithFfmpeg(data: Uint8Array, sampleRate: number): Promise<Int16Array> {
  if (!FFMPEG_AVAILABLE) throw new Error(NO_FFMPEG_REASON);
  const dir = await mkdtemp(join(tmpdir(), 'alma-ffmpeg-decode-'));
  try {
    const input = join(dir, 'in.bin');
    await writeFile(input, data);
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', input];
    const out = await run([...args, '-f', 's16le', '-ac', '1', '-ar', String(sampleRate), 'pipe:1']);
    const pcm = new Int16Array(out.length / 2);
    for (let i = 0; i < pcm.length; i++) pcm[i] = out.readInt16LE(i * 2);
    return pcm;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
