/**
 * The lip-sync bench's judge (lipsync-bench.ts): the mouth's events on a reply's timeline, the
 * sound's events in the PCM played, and each mouth event's offset from its sound event (mouth −
 * sound, ms; negative: the mouth leads). Only what the sound can show is judged:
 *  - a pause: the mouth at `sil` for ≥ SILENCE_MIN_MS — its start an offset (the mouth closes),
 *    its end an onset (the mouth opens) — against the sound falling into / rising out of a
 *    silence (≥ SOUND_SILENCE_MIN_MS: the sound's pause is shorter than the mouth's by the tail
 *    it rings on for), the nearest within ±PAUSE_SEARCH_MS. A shorter mouth pause is not judged:
 *    the sound cannot show it (a silence that short is a stop's closure or a word join, not a
 *    pause). The reply's first opening and last closing are judged whatever their length (it
 *    starts from silence and ends in it);
 *  - a lip closure: a full `PP` key (w ≥ 0.9) after a sounding key — the lips meet — against the
 *    sound's closure landmarks (`closures`: the oral sound cut off — a p or b's closure is near
 *    silence — an m's murmur keeping only its low frequencies, `murmurOnsets`, and the sound
 *    taking an m's own shape, `bilabialMurmurOnsets`). A `PP` right after `sil` (a p, b or m
 *    starting speech) shuts lips that are already shut, inside a silence: not judged; nor is a
 *    second `PP` key of the same closure (its release).
 * Which landmark is a closure's own: the nearest within ±CLOSURE_SEARCH_MS that is no nearer to
 * another of the mouth's closing onsets (a tongue consonant, a pause, another closure: its cell).
 * Landmarks are dense in connected speech (a t, n, k or l cuts the sound too), and nearest-in-
 * ±120 ms alone matched a closure to its neighbour's landmark — "week brings": the b keyed where
 * its closure falls silent, matched to the k's closure 81 ms before it; "un poco" (espeak: u m p):
 * the m matched to the p's closure 86 ms after it. The bench prints two controls, whose share
 * still judged within is the judge's false passes: the same track with every closure keyed 60 ms
 * late (15 ms past the window, `lateBy`), and with every closure keyed at a random time away from
 * all of them (`randomClosures`). On the bench's 103 closures (its lamejs audio of 2026-11-28,
 * with a 20 ms hold): nearest-in-±120 ms judged 76 within and 20 of the late ones within; in
 * cells, 69 and 6.
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
/**
 * Envelope frames are HOP samples apart: 44 at 22 050 Hz, 1.9955 ms — not 2 ms. Frame f is at
 * f × HOP_MS. (Counted as 2 ms, every sound event was placed 0.23 % late: 34 ms at the end of a
 * 15 s reply, which read as a mouth leading by 15–20 ms and more the later in the reply.)
 */
const HOP = Math.round((2 * RATE) / 1000);
export const HOP_MS = (HOP * 1000) / RATE;
/** Whole frames in `ms`. */
const frames = (ms: number) => Math.round(ms / HOP_MS);
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
  /** A closure's cell: the sound's landmarks nearer to it than to the mouth's other closing onsets. */
  cell?: [number, number];
}

/** Every chunk's keys (or phoneme events) on the reply's timeline (each from its chunk's start). */
export function timeline<T extends { t: number }>(tracks: readonly T[][], starts: readonly number[]): T[] {
  return tracks.flatMap((keys, i) => keys.map((k) => ({ ...k, t: (starts[i] ?? 0) + k.t })));
}

const isClosure = (k: VisemeKey | undefined) => k !== undefined && k.v === 'PP' && k.w >= 0.9;
const VOWELS: ReadonlySet<string> = new Set(['aa', 'E', 'I', 'O', 'U']);

/**
 * Where the mouth starts to close: a key of a consonant or `sil` that starts its shape — not a
 * continuation of the key before (a closure's release, a pause's second key, a p closing lips an
 * m shut) nor an anticipation (a lighter key of the shape the next key gives in full, visemes.ts).
 */
export function closingOnsets(keys: readonly VisemeKey[]): number[] {
  return keys
    .filter((key, i) => {
      const previous = keys[i - 1];
      const next = keys[i + 1];
      if (VOWELS.has(key.v) || (previous?.v === key.v && previous.w >= key.w)) return false;
      return !(next && next.v === key.v && next.w > key.w);
    })
    .map((key) => key.t);
}

/** A control's displacement of a judged closure keyed at `ms` (ms; > 0: later). */
export type ClosureShift = (ms: number) => number;

/**
 * The mouth's judged events (see the header); `endMs` is where the reply's sound ends.
 * `shift` moves every judged closure, its cell with it (the bench's controls): `lateBy` and
 * `randomClosures`.
 */
export function mouthEvents(
  keys: readonly VisemeKey[],
  endMs: number,
  shift: ClosureShift = () => 0,
): MouthEvent[] {
  const events: MouthEvent[] = [];
  const onsets = closingOnsets(keys);
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
    if (isClosure(key) && previous && previous.v !== 'sil' && !isClosure(previous)) {
      const by = shift(key.t);
      events.push({
        kind: 'closure',
        ms: key.t + by,
        cell: cellOf(
          key.t + by,
          onsets.filter((o) => o !== key.t),
          (keys[i + 1]?.t ?? Infinity) + by - FALL_HALF_MS,
        ),
      });
    }
  });
  if (silentSince !== null && Number.isFinite(silentSince) && silentSince < endMs)
    events.push({ kind: 'offset', ms: silentSince });
  return events.sort((a, b) => a.ms - b.ms);
}

/** The late control: every judged closure keyed `ms` later. */
export const lateBy =
  (ms: number): ClosureShift =>
  () =>
    ms;

/** How far from a real closure a control's closure must be keyed to be out of the window (ms). */
const CONTROL_MARGIN_MS = 15;

/**
 * The random control: each judged closure keyed instead at a random time of the reply's speech
 * (seeded: the same draw every run) — between its first opening and last closing, outside the
 * mouth's judged pauses, and never where the window would count it as a real closure's (from
 * WINDOW.lead − CONTROL_MARGIN_MS before one to WINDOW.lag + CONTROL_MARGIN_MS after it). Every
 * one judged within is a false pass: a landmark the judge found near nothing the mouth does.
 */
export function randomClosures(keys: readonly VisemeKey[], endMs: number, seed = 1): ClosureShift {
  const events = mouthEvents(keys, endMs);
  const real = events.filter((e) => e.kind === 'closure').map((e) => e.ms);
  const pauses = events
    .filter((e) => e.kind === 'offset')
    .map((e) => {
      const end = events.find((o) => o.kind === 'onset' && o.ms > e.ms);
      return [e.ms, end?.ms ?? Infinity] as const;
    });
  const from = events.find((e) => e.kind === 'onset')?.ms ?? 0;
  const until = pauses.at(-1)?.[0] ?? endMs;
  let state = seed >>> 0;
  // mulberry32: a small, seeded, uniform generator.
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
  const allowed = (t: number) =>
    !pauses.some(([a, b]) => t >= a && t <= b) &&
    !real.some((c) => t - c >= WINDOW.lead - CONTROL_MARGIN_MS && t - c <= WINDOW.lag + CONTROL_MARGIN_MS);
  return (ms) => {
    for (let tries = 0; tries < 1000; tries++) {
      const t = from + next() * (until - from);
      if (allowed(t)) return t - ms;
    }
    throw new Error('no time of this reply is free of its closures');
  };
}

/**
 * A closure's cell: from halfway to the closing onset before `t` to halfway to the one after it
 * (`onsets` without t's own), and no later than `next`: FALL_HALF_MS before the key after the
 * closure's — the lips meet before the next phoneme starts behind them, and a fall centred
 * closer to that key is its own. (In "un poco" espeak speaks u m p: the m shuts the lips, the
 * p's silence 80–96 ms later falls while they are shut — that fall is not the m's; in the
 * bench's audio five m's before a p or b were matched to it, 81–95 ms "early", one of them 6 ms
 * before the p's key.)
 */
function cellOf(t: number, onsets: readonly number[], next: number): [number, number] {
  const before = onsets.filter((o) => o < t).at(-1);
  const after = onsets.find((o) => o > t);
  return [
    before === undefined ? -Infinity : (before + t) / 2,
    Math.min(next, after === undefined ? Infinity : (t + after) / 2),
  ];
}

/** Energy envelope in dB, one value per HOP_MS; `emphasis` uses the first difference (high frequencies). */
function envelope(pcm: Float32Array, emphasis: boolean): Float32Array {
  const hop = HOP;
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
  closures: number[];
}

/** Onsets and offsets around silences of ≥ SOUND_SILENCE_MIN_MS, and the closure landmarks. */
export function soundEvents(pcm: Float32Array): SoundEvents {
  const env = envelope(pcm, false);
  const peak = env.reduce((m, v) => Math.max(m, v), -Infinity);
  const silent = Array.from(env, (v) => v < peak - SILENCE_DB);
  const minRun = frames(SOUND_SILENCE_MIN_MS);
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
  return { onsets, offsets, closures: closures(pcm) };
}

/** Frames over which a fall is measured (each side of its centre). */
const FALL_HALF_MS = 10;
const FALL_DB = 12;
/**
 * A closure lasts: the energy stays down this long past the fall's end — 20 ms of closure from
 * the fall's centre. espeak's shortest lip closures are 25–30 ms (the p of "por preguntar" after
 * its tap: 1468–1500 ms in the first es reply; the b of "week brings" after the k's burst);
 * its taps and the dip that starts an English m last ≤ 12 ms. (20 ms here — 30 ms of closure —
 * missed those two; on the bench's 103 closures, 69 within and 6 of the late control with 20 ms,
 * 73 and 8–9 with 10.)
 */
const FALL_HOLD_MS = 10;

/**
 * Where an envelope falls by ≥ FALL_DB within 2 × FALL_HALF_MS and stays down `hold` frames
 * longer (into a closure or a murmur, not a dip between two sounds), each fall at its steepest
 * frame (ms).
 */
function falls(env: Float32Array, hold = frames(FALL_HOLD_MS)): number[] {
  const k = frames(FALL_HALF_MS);
  const drop = (f: number) => (env[f - k] ?? 0) - (env[f + k] ?? 0);
  const out: number[] = [];
  for (let f = k; f < env.length - k; f++) {
    const d = drop(f);
    if (d < FALL_DB) continue;
    let steepest = true;
    for (let g = f - k; g <= f + k && steepest; g++) if (g !== f && drop(g) > d) steepest = false;
    let held = steepest;
    for (let g = f + k; g <= f + k + hold && held; g++) held = (env[g] ?? 0) <= (env[f - k] ?? 0) - FALL_DB;
    if (held) out.push(f * HOP_MS);
  }
  return out;
}

/**
 * The sound's lip-closure landmarks (ms, sorted): where the high-frequency energy (first
 * difference) falls (`falls`) — the lips cutting the oral sound off, a p or b's closure near
 * silence — where a nasal murmur starts (`murmurOnsets`) — an m, whose voice goes on — and where
 * the sound takes an m's own shape (`bilabialMurmurOnsets`), however it got there.
 *
 * Not found any of those ways, looked at on the audio (lip-sync bench, 2026-11-29): five p's and
 * b's whose fall into the closure's silence starts from a sound already weak — after a tap
 * ("cuerpo"), a k's release ("week brings"), an ŋ ("something brief") and espeak's American
 * l-coloured vowels ("help", "we'll pick"): 10–13 dB, not held 10 ms. Tried and rejected: falls in
 * two of four oral bands (800–5000 Hz, absolute) found 10 more of 103 closures but passed 27 of
 * the late control's, against 10 without them; falls of three oral bands each against the murmur
 * band found 3 more of 103 and raised the random control from 11 to 21 % (es) and 14 % (en); any
 * fall into a silence of ≥ 20 ms found 3 more English closures and tripled the English late
 * control (3.6 → 9.1 %).
 */
export function closures(pcm: Float32Array): number[] {
  const voice = voiceLevels(pcm);
  return [
    ...falls(envelope(pcm, true)),
    ...murmurOnsets(pcm, voice),
    ...bilabialMurmurOnsets(pcm, voice),
  ].sort((a, b) => a - b);
}

/** The whole signal's and the murmur band's envelopes, and the reply's silence level (dB). */
interface VoiceLevels {
  whole: Float32Array;
  low: Float32Array;
  silence: number;
}

function voiceLevels(pcm: Float32Array): VoiceLevels {
  const whole = envelope(pcm, false);
  return {
    whole,
    low: envelope(filtered(pcm, 'low', MURMUR_HZ), false),
    silence: whole.reduce((m, v) => Math.max(m, v), -Infinity) - SILENCE_DB,
  };
}

/**
 * `pcm` low-passed or high-passed at `hz`: a second-order Butterworth section (RBJ's cookbook),
 * run forwards and then backwards, so nothing is delayed (a fourth-order magnitude response).
 */
function filtered(pcm: Float32Array, kind: 'low' | 'high', hz: number): Float32Array {
  const w = (2 * Math.PI * hz) / RATE;
  const alpha = Math.sin(w) / Math.SQRT2;
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const b1 = (kind === 'low' ? 1 - cos : -(1 + cos)) / a0;
  const b0 = kind === 'low' ? b1 / 2 : -b1 / 2;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  const out = Float32Array.from(pcm);
  for (const [start, step] of [
    [0, 1],
    [pcm.length - 1, -1],
  ] as const) {
    let [x1, x2, y1, y2] = [0, 0, 0, 0];
    for (let i = start; i >= 0 && i < out.length; i += step) {
      const x = out[i]!;
      const y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
  }
  return out;
}

/** The murmur's band: below this the voice carries on through an m (its nasal resonance). */
const MURMUR_HZ = 400;
/** The mouth's resonances (formants 2 and up, a fricative's noise): cut off when the lips shut. */
const ORAL_HZ: [number, number] = [500, 5000];
/** A murmur lasts: the oral band stays down this long past the fall's end (espeak's m ≥ 50 ms). */
const MURMUR_HOLD_MS = 20;

/**
 * Where a nasal murmur starts (ms): the lips shut the mouth while the voice goes on through the
 * nose. An m inside voiced speech keeps its loudness — its low band often grows as the vowel's
 * upper formants go (in "paseamos" < 400 Hz rises 7 dB as 500–5000 Hz falls 16) — so neither
 * the whole signal's energy nor its first difference falls steeply there (`falls`, which found
 * none of the bench's 2026-11-28 misses); the balance between the bands does. Each rule is
 * tested on synthetic sound (tests/tooling/lipsync-analysis.test.ts):
 *  - the oral band (ORAL_HZ) falls ≥ FALL_DB within 2 × FALL_HALF_MS *relative to* the murmur
 *    band (below MURMUR_HZ), and stays down MURMUR_HOLD_MS longer (not a formant's passing dip);
 *  - the fall starts from sound (the whole signal above the reply's silence, SILENCE_DB below
 *    its loudest): out of a silence the balance is the noise floor's, and any voice starting
 *    "falls" from it;
 *  - the murmur band stays voiced from the fall's centre to the hold's end: a fall into silence
 *    is a stop's closure, `falls`' to find.
 */
export function murmurOnsets(pcm: Float32Array, { whole, low, silence } = voiceLevels(pcm)): number[] {
  const oral = bandEnvelope(pcm, ORAL_HZ);
  const balance = oral.map((v, f) => v - low[f]!);
  const voiced = (from: number, to: number) => low.subarray(from, to + 1).every((v) => v > silence);
  const hold = frames(MURMUR_HOLD_MS);
  const k = frames(FALL_HALF_MS);
  return falls(balance, hold).filter((ms) => {
    const f = Math.round(ms / HOP_MS);
    return whole[f - k]! > silence && voiced(f, f + k + hold);
  });
}

/** The energy envelope of `pcm` between two frequencies (Hz), or above one. */
function bandEnvelope(pcm: Float32Array, [from, to]: readonly [number, number?]): Float32Array {
  const high = filtered(pcm, 'high', from);
  return envelope(to === undefined ? high : filtered(high, 'low', to), false);
}

/** The bands of an m's shape (Hz): its zero, its upper resonances, and above them. */
const BILABIAL_ZERO_HZ = [500, 1000] as const;
const NASAL_UPPER_HZ = [1000, 3000] as const;
const ABOVE_NASAL_HZ = [3000] as const;
/** How far the zero's band lies below the murmur band, at least (dB)… */
const ZERO_BELOW_MURMUR_DB = 14;
/** …how far the upper resonances' band may lie below the zero's, at most… */
const UPPER_BELOW_ZERO_DB = 2;
/** …and how far above 3 kHz lies below the murmur band, at least. */
const ABOVE_BELOW_MURMUR_DB = 17;
/** The shape lasts this long from its start: the span `murmurOnsets` asks of a murmur. */
const BILABIAL_MIN_MS = FALL_HALF_MS + MURMUR_HOLD_MS;
/** A murmur broken for less than this (a frame or two) is one murmur. */
const BILABIAL_BRIDGE_MS = 10;

/**
 * Where the sound takes the shape of an m (ms): the murmur of the bilabial nasal, whatever came
 * before it. With the lips shut the mouth behind them is a side branch of the nasal tract, and
 * its resonance turns into an antiresonance (a zero) — lowest for m of the three nasals, the
 * branch being longest: ~750–1250 Hz for m, ~1450–2200 Hz for n, above 3 kHz for ŋ (Fujimura
 * 1962) — while the voice comes out through the nose: a strong murmur below 400 Hz, weak nasal
 * resonances above 1 kHz, little above 3 kHz. A frame has that shape when, voiced below
 * MURMUR_HZ (above the reply's silence):
 *  - 500–1000 Hz (the zero's band) lies ≥ ZERO_BELOW_MURMUR_DB below the murmur band;
 *  - 1–3 kHz lies no more than UPPER_BELOW_ZERO_DB below 500–1000 Hz: the nasal resonances stand
 *    above the zero — an n's zero, in 1–3 kHz, leaves that band ~8 dB below 500–1000 Hz, and a
 *    back vowel's second formant (~800 Hz) ~9 dB below;
 *  - above 3 kHz lies ≥ ABOVE_BELOW_MURMUR_DB below the murmur band: no front vowel's upper
 *    formants, no fricative's noise.
 * On the bench's espeak speech (2026-11-29; per phoneme, the median of the frames of its middle
 * 40 %; the three figures in that order): the 57 m's −19…−15, −2…+5, −23…−19 dB (medians −17,
 * +3, −21); n −15, −8, −21; Spanish u −8, −9, −15; i −18, +5, −6; ŋ −12, −13, −25; v −15, −5,
 * −17. The landmark is where the shape starts and then lasts ≥ BILABIAL_MIN_MS (a break in it
 * shorter than BILABIAL_BRIDGE_MS — a transient, a frame or two — bridged), not out of a pause:
 * after a silence of ≥ SOUND_SILENCE_MIN_MS the lips were shut in the pause (not judged,
 * `mouthEvents`); a shorter one is a join — espeak puts ~14 ms of near silence between an l and
 * an m ("al mar", "tell me"). It finds the m's where neither fall does: after u ("un poco",
 * "humanos": the zero takes 500–1000 Hz down ~5 dB as 1–3 kHz rises ~7, and the balance of
 * 500–5000 Hz against the murmur band barely moves), after i ("comimos": what goes is above
 * 3 kHz), out of a join ("al mar", "el mejor", "tell me"), after a k's release ("walk might"),
 * an r-coloured vowel ("warm people") or a v ("of mystery"); each within −12…+3 ms of its key.
 * Tested on synthetic sound, rule by rule, and on espeak's (tests/tooling/lipsync-analysis.test.ts).
 */
export function bilabialMurmurOnsets(
  pcm: Float32Array,
  { whole, low, silence } = voiceLevels(pcm),
): number[] {
  const zero = bandEnvelope(pcm, BILABIAL_ZERO_HZ);
  const upper = bandEnvelope(pcm, NASAL_UPPER_HZ);
  const above = bandEnvelope(pcm, ABOVE_NASAL_HZ);
  const shaped = Array.from(
    low,
    (murmur, f) =>
      murmur > silence &&
      zero[f]! <= murmur - ZERO_BELOW_MURMUR_DB &&
      upper[f]! >= zero[f]! - UPPER_BELOW_ZERO_DB &&
      above[f]! <= murmur - ABOVE_BELOW_MURMUR_DB,
  );
  // Unbroken runs of the shape, [start, end) frames; a break shorter than BILABIAL_BRIDGE_MS (a
  // transient, a frame or two) does not end a murmur: one that lasts may start before it.
  const runs: [number, number][] = [];
  for (let f = 0; f < shaped.length; f++)
    if (shaped[f] && !shaped[f - 1]) {
      let end = f;
      while (shaped[end]) end++;
      runs.push([f, end]);
    }
  const bridge = frames(BILABIAL_BRIDGE_MS);
  const lasts = frames(BILABIAL_MIN_MS);
  const pause = frames(SOUND_SILENCE_MIN_MS);
  const out: number[] = [];
  for (let r = 0; r < runs.length;) {
    const first = r;
    do r++;
    while (r < runs.length && runs[r]![0] - runs[r - 1]![1] < bridge);
    const chain = runs.slice(first, r);
    if (!chain.some(([from, to]) => to - from >= lasts)) continue;
    // The silence right before it, if any (the audio's start counts as a pause).
    const start = chain[0]![0];
    let quiet = 0;
    while (start - quiet > 0 && whole[start - quiet - 1]! <= silence) quiet++;
    if (quiet < pause && start - quiet > 0) out.push(start * HOP_MS);
  }
  return out;
}

/** The value nearest `to` within ±`within` and inside `cell`, or null. */
function nearest(
  values: readonly number[],
  to: number,
  within: number,
  [from, until]: [number, number] = [-Infinity, Infinity],
): number | null {
  let best: number | null = null;
  for (const v of values)
    if (
      Math.abs(v - to) <= within &&
      v >= from &&
      v <= until &&
      (best === null || Math.abs(v - to) < Math.abs(best - to))
    )
      best = v;
  return best;
}

/** Offsets (mouth − sound, ms) of every event; null where the sound had no match. */
export function offsets(pcm: Float32Array, mouth: readonly MouthEvent[]): (number | null)[] {
  const sound = soundEvents(pcm);
  return mouth.map((event) => {
    const match =
      event.kind === 'closure'
        ? nearest(sound.closures, event.ms, CLOSURE_SEARCH_MS, event.cell)
        : nearest(event.kind === 'onset' ? sound.onsets : sound.offsets, event.ms, PAUSE_SEARCH_MS);
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
