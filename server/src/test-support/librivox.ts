import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeOpusPackets, muxOpus } from './voice-note.ts';

/**
 * Read human speech for recognition tests: the five LibriVox clips (Sense and Sensibility, 16 kHz
 * mono WAV) and their reference transcripts that Debian's `pocketsphinx-testdata` installs.
 */
export const LIBRIVOX_DIR = '/usr/share/pocketsphinx/test/data/librivox';

export interface LibrivoxClip {
  id: string;
  /** Lower-case words, as in the package's `transcription` file. */
  reference: string;
  /** 16 kHz mono samples. */
  pcm: Int16Array;
  sampleRate: number;
}

export function librivoxAvailable(): boolean {
  return existsSync(join(LIBRIVOX_DIR, 'transcription'));
}

/** The PCM of a 16-bit mono WAV, found by walking its chunks. */
function readWav(file: string): { pcm: Int16Array; sampleRate: number } {
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error(`${file}: not a WAV`);
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= buf.length) {
    const id = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (buf.readUInt16LE(body + 2) !== 1 || buf.readUInt16LE(body + 14) !== 16)
        throw new Error(`${file}: not 16-bit mono`);
      sampleRate = buf.readUInt32LE(body + 4);
    } else if (id === 'data') {
      const end = Math.min(buf.length, body + size);
      const pcm = new Int16Array((end - body) >> 1);
      for (let i = 0; i < pcm.length; i++) pcm[i] = buf.readInt16LE(body + i * 2);
      return { pcm, sampleRate };
    }
    at = body + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

export function loadLibrivoxClips(): LibrivoxClip[] {
  const lines = readFileSync(join(LIBRIVOX_DIR, 'transcription'), 'utf8').split('\n');
  const clips: LibrivoxClip[] = [];
  for (const line of lines) {
    const match = /^\s*(?:<s>)?(.*?)(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const id = match[2];
    const wav = readWav(join(LIBRIVOX_DIR, `${id}.wav`));
    clips.push({ id, reference: match[1].trim(), ...wav });
  }
  return clips;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/** Word-level edit distance (substitutions + insertions + deletions) and the reference length. */
export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const cost = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = row;
  }
  return { errors: previous[hyp.length] ?? 0, words: ref.length };
}

/** A clip as a browser-like voice note: upsampled to 48 kHz, Opus (libopus), WebM or Ogg. */
export async function librivoxVoiceNote(clip: LibrivoxClip, container: 'webm' | 'ogg'): Promise<Uint8Array> {
  const rate = 48_000;
  const length = Math.round((clip.pcm.length * rate) / clip.sampleRate);
  const samples = new Float32Array(length);
  const step = clip.sampleRate / rate;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const j = Math.floor(x);
    const a = (clip.pcm[j] ?? 0) / 32768;
    const b = (clip.pcm[j + 1] ?? clip.pcm[j] ?? 0) / 32768;
    samples[i] = a + (b - a) * (x - j);
  }
  return muxOpus(await encodeOpusPackets(samples), container);
}
