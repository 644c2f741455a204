import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromInt16, readWav, resample, toInt16 } from '../audio/index.ts';
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

/** The PCM of a clip's WAV, through the server's WAV reader. */
function readClip(file: string): { pcm: Int16Array; sampleRate: number } {
  const wav = readWav(new Uint8Array(readFileSync(file)), { strict: false });
  return { pcm: toInt16(wav.pcm), sampleRate: wav.sampleRate };
}

export function loadLibrivoxClips(): LibrivoxClip[] {
  const lines = readFileSync(join(LIBRIVOX_DIR, 'transcription'), 'utf8').split('\n');
  const clips: LibrivoxClip[] = [];
  for (const line of lines) {
    const match = /^\s*(?:<s>)?(.*?)(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(line);
    if (!match?.[1] || !match[2]) continue;
    const id = match[2];
    const wav = readClip(join(LIBRIVOX_DIR, `${id}.wav`));
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
  const samples = resample(fromInt16(clip.pcm), clip.sampleRate, 48_000);
  return muxOpus(await encodeOpusPackets(samples), container);
}
