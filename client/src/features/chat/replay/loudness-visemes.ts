import type { Viseme } from '../audio/queue.ts';

/**
 * A viseme track for audio that arrives without one: a reply's stored file, replayed (SPEC.md
 * ST-5). The file keeps no phoneme timings, so the mouth follows what can be heard: silence closes
 * it, loud voiced frames open it wide, quieter ones half (rounded when the sound is dark, spread
 * when it is bright), and noisy frames (many zero crossings:
 * s, f, ch) show the sibilant shape. Keys use the live track's semantics (`t` ms from the start,
 * "from here head for `v` at weight `w`"), so the speech queue and the avatar engine treat a
 * replay exactly like live speech.
 */

/** Analysis frame: about one syllable's consonant or vowel part. */
export const FRAME_MS = 40;
/** Below this share of the file's loudest frame, a frame is silence. */
const SILENCE = 0.12;
/** Zero crossings per sample above which a frame is noise-like (a sibilant or fricative). */
const NOISY = 0.18;

interface Frame {
  rms: number;
  crossings: number;
}

function frames(samples: Float32Array, sampleRate: number): Frame[] {
  const size = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const out: Frame[] = [];
  for (let start = 0; start < samples.length; start += size) {
    const end = Math.min(samples.length, start + size);
    let sum = 0;
    let crossings = 0;
    let previous = samples[start] ?? 0;
    for (let i = start; i < end; i++) {
      const s = samples[i] ?? 0;
      sum += s * s;
      if (s >= 0 !== previous >= 0) crossings++;
      previous = s;
    }
    out.push({ rms: Math.sqrt(sum / (end - start)), crossings: crossings / (end - start) });
  }
  return out;
}

/** Below this, a mid-loud vowel is a dark, rounded one (o, u); above, a bright, spread one (e, i). */
const DARK = 0.04;

/** The viseme a frame shows, from its loudness relative to the file's loudest frame. */
function shape(frame: Frame, loudest: number): { v: string; w: number } {
  const level = loudest > 0 ? frame.rms / loudest : 0;
  if (level < SILENCE) return { v: 'sil', w: 0 };
  const w = Math.round(Math.min(1, 0.35 + level * 0.75) * 100) / 100;
  if (frame.crossings > NOISY) return { v: 'SS', w: Math.min(w, 0.7) };
  if (level > 0.6) return { v: 'aa', w };
  if (level > 0.3) return { v: frame.crossings < DARK ? 'O' : 'E', w };
  return { v: 'nn', w: Math.min(w, 0.6) };
}

/** The track of `samples` (mono, −1…1): one key where the shape changes, none while it holds. */
export function visemesFromLoudness(samples: Float32Array, sampleRate: number): Viseme[] {
  if (sampleRate <= 0 || samples.length === 0) return [];
  const all = frames(samples, sampleRate);
  const loudest = all.reduce((max, f) => Math.max(max, f.rms), 0);
  const track: Viseme[] = [];
  all.forEach((frame, i) => {
    const { v, w } = shape(frame, loudest);
    const last = track[track.length - 1];
    if (last && last.v === v && Math.abs(last.w - w) < 0.15) return;
    track.push({ t: i * FRAME_MS, v, w });
  });
  return track;
}
