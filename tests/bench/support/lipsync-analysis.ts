/**
 * The lip-sync bench's judge (lipsync-bench.ts): the mouth's events on a reply's timeline, the
 * sound's events in the PCM played, and each mouth event's offset from the nearest sound event
 * of its kind (mouth − sound, ms; negative: the mouth leads). Only what the sound can show is
 * judged:
 *  - a pause: the mouth at `sil` for ≥ SILENCE_MIN_MS — its start an offset (the mouth closes),
 *    its end an onset (the mouth opens) — against the sound falling into / rising out of a
 *    silence (≥ SOUND_SILENCE_MIN_MS: the sound's pause is shorter than the mouth's by the tail
 *    it rings on for). A shorter mouth pause is not judged: the sound cannot show it (a silence
 *    that short is a stop's closure or a word join, not a pause). The reply's first opening and
 *    last closing are judged whatever their length (it starts from silence and ends in it);
 *  - a lip closure: a full `PP` key (w ≥ 0.9) after a sounding key — the lips meet — against a
 *    fall of the high-frequency energy by ≥ FALL_DB within 20 ms that stays down FALL_HOLD_MS
 *    (the lips cut the sound off: a p or b's closure is near silence, an m's murmur has no high
 *    frequencies), the one nearest the key within ±CLOSURE_SEARCH_MS. A `PP` right after `sil`
 *    (a p, b or m starting speech) shuts lips that are already shut, inside a silence: not
 *    judged; nor is a second `PP` key of the same closure (its release).
 * Not judged at all: the other visemes' onsets inside connected speech (a vowel after a
 * consonant, a tongue shape) — the sound has no event there that marks the mouth's change
 * better than the phoneme events the keys come from.
 * Silence is judged against the direct sound, not its tail: frames more than SILENCE_DB below
 * the reply's loudest. espeak's voices ring on for ~40 ms at −35…−45 dB after speech stops,
 * which no mouth shows.
 * A mouth event whose sound event is not found counts as outside the window in the headline
 * share; the share of those found is printed beside it.
 */

export const RATE = 22_050;
const HOP_MS = 2;
const WINDOW_MS = 8;
export const SILENCE_MIN_MS = 60;
/** The sound's silences counted as pauses: shorter than the mouth's, by the tail it rings on for. */
const SOUND_SILENCE_MIN_MS = 30;
const SILENCE_DB = 35;
/** How far from a mouth event its sound event is looked for. */
const PAUSE_SEARCH_MS = 250;
const CLOSURE_SEARCH_MS = 120;
export const WINDOW = { lead: -125, lag: 45 };

export interface VisemeKey {
  t: number;
  v: string;
  w: number;
}

export type Kind = 'onset' | 'offset' | 'closure';

export interface MouthEvent {
  kind: Kind;
  ms: number;
}

/** Every chunk's keys on the reply's timeline (each from its chunk's start). */
export function timeline(tracks: readonly VisemeKey[][], starts: readonly number[]): VisemeKey[] {
  return tracks.flatMap((keys, i) => keys.map((k) => ({ ...k, t: (starts[i] ?? 0) + k.t })));
}

const isClosure = (k: VisemeKey | undefined) => k !== undefined && k.v === 'PP' && k.w >= 0.9;

/** The mouth's judged events (see the header); `endMs` is where the reply's sound ends. */
export function mouthEvents(keys: readonly VisemeKey[], endMs: number): MouthEvent[] {
  const events: MouthEvent[] = [];
  // The reply starts from silence and ends in it: its first opening and last closing are judged
  // whatever the length of the mouth's pause around them.
  let silentSince: number | null = -Infinity;
  keys.forEach((key, i) => {
    const previous = keys[i - 1];
    if (key.v === 'sil') {
      silentSince ??= key.t;
      return;
    }
    if (silentSince !== null) {
      if (key.t - silentSince >= SILENCE_MIN_MS) {
        if (Number.isFinite(silentSince)) events.push({ kind: 'offset', ms: silentSince });
        events.push({ kind: 'onset', ms: key.t });
      }
      silentSince = null;
    }
    if (isClosure(key) && previous && previous.v !== 'sil' && !isClosure(previous))
      events.push({ kind: 'closure', ms: key.t });
  });
  if (silentSince !== null && Number.isFinite(silentSince) && silentSince < endMs)
    events.push({ kind: 'offset', ms: silentSince });
  return events.sort((a, b) => a.ms - b.ms);
}

/** Energy envelope in dB, one value per HOP_MS; `emphasis` uses the first difference (high frequencies). */
function envelope(pcm: Float32Array, emphasis: boolean): Float32Array {
  const hop = Math.round((HOP_MS * RATE) / 1000);
  const win = Math.round((WINDOW_MS * RATE) / 1000);
  const out = new Float32Array(Math.floor(pcm.length / hop));
  for (let f = 0; f < out.length; f++) {
    let sum = 0;
    const start = f * hop - win / 2;
    for (let i = Math.max(1, start); i < Math.min(pcm.length, start + win); i++) {
      const x = emphasis ? (pcm[i] ?? 0) - 0.95 * (pcm[i - 1] ?? 0) : (pcm[i] ?? 0);
      sum += x * x;
    }
    out[f] = 10 * Math.log10(sum / win + 1e-12);
  }
  return out;
}

interface SoundEvents {
  onsets: number[];
  offsets: number[];
  falls: number[];
}

/** Onsets and offsets around silences of ≥ SILENCE_MIN_MS, and the high-frequency envelope. */
function soundEvents(pcm: Float32Array): SoundEvents {
  const env = envelope(pcm, false);
  const peak = env.reduce((m, v) => Math.max(m, v), -Infinity);
  const silent = Array.from(env, (v) => v < peak - SILENCE_DB);
  const minRun = SOUND_SILENCE_MIN_MS / HOP_MS;
  const onsets: number[] = silent[0] ? [] : [0];
  const offsets: number[] = [];
  for (let i = 0; i < silent.length;) {
    if (!silent[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < silent.length && silent[j]) j++;
    // Before the reply's first sound and after its last, any silence counts: the reply starts
    // from and ends in silence.
    if (j - i >= minRun || i === 0 || j === silent.length) {
      if (i > 0) offsets.push(i * HOP_MS);
      if (j < silent.length) onsets.push(j * HOP_MS);
    }
    i = j;
  }
  return { onsets, offsets, falls: falls(envelope(pcm, true)) };
}

/** Frames over which a fall is measured (each side of its centre). */
const FALL_HALF_MS = 10;
const FALL_DB = 12;
/** A closure lasts: the energy stays down this long after the fall. */
const FALL_HOLD_MS = 20;

/**
 * Where the high-frequency energy falls by ≥ FALL_DB within 2 × FALL_HALF_MS and stays down for
 * FALL_HOLD_MS (the lips cutting the sound off), each fall at its steepest frame.
 */
function falls(hf: Float32Array): number[] {
  const k = FALL_HALF_MS / HOP_MS;
  const drop = (f: number) => (hf[f - k] ?? 0) - (hf[f + k] ?? 0);
  const out: number[] = [];
  for (let f = k; f < hf.length - k; f++) {
    const d = drop(f);
    if (d < FALL_DB) continue;
    let steepest = true;
    for (let g = f - k; g <= f + k && steepest; g++) if (g !== f && drop(g) > d) steepest = false;
    // Into a stretch that stays down (a closure or a murmur), not a dip between two sounds.
    let held = steepest;
    for (let g = f + k; g <= f + k + FALL_HOLD_MS / HOP_MS && held; g++)
      held = (hf[g] ?? 0) <= (hf[f - k] ?? 0) - FALL_DB;
    if (held) out.push(f * HOP_MS);
  }
  return out;
}

function nearest(values: readonly number[], to: number, within: number): number | null {
  let best: number | null = null;
  for (const v of values)
    if (Math.abs(v - to) <= within && (best === null || Math.abs(v - to) < Math.abs(best - to))) best = v;
  return best;
}

/** Offsets (mouth − sound, ms) of every event; null where the sound had no match. */
export function offsets(pcm: Float32Array, mouth: readonly MouthEvent[]): (number | null)[] {
  const sound = soundEvents(pcm);
  return mouth.map((event) => {
    const found = { onset: sound.onsets, offset: sound.offsets, closure: sound.falls }[event.kind];
    const match = nearest(found, event.ms, event.kind === 'closure' ? CLOSURE_SEARCH_MS : PAUSE_SEARCH_MS);
    return match === null ? null : event.ms - match;
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export function summary(values: (number | null)[]) {
  const found = values.filter((v): v is number => v !== null);
  const within = found.filter((v) => v >= WINDOW.lead && v <= WINDOW.lag).length;
  return {
    events: values.length,
    found: found.length,
    // Of every judged mouth event (one whose sound event was not found counts as a miss), and
    // of those found (how the mouth sits against the sound that was seen).
    withinPct: Number(((within / Math.max(1, values.length)) * 100).toFixed(1)),
    withinFoundPct: Number(((within / Math.max(1, found.length)) * 100).toFixed(1)),
    medianMs: Number(median(found).toFixed(1)),
    medianAbsMs: Number(median(found.map(Math.abs)).toFixed(1)),
  };
}
