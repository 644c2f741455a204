import { VISEME_NAMES, type Language } from '@alma/protocol';
import type { VisemeKey, WordTiming } from './types.ts';

/**
 * Phonemes → the 15 Oculus visemes (ARCHITECTURE §6), as a track of keys the avatar engine
 * blends between. Two sources: espeak's phoneme events (exact times, `visemesFromPhonemes`) and,
 * for providers that give no timings, letters spread over the voiced parts of the audio
 * (`estimateTimings`).
 *
 * Track semantics: a key says "from `t` on, head for viseme `v` at weight `w`"; the client
 * interpolates from one key to the next. Coarticulation comes from that blending plus three
 * rules here: short phonemes get a lighter weight (a brief target, not a snap), lip shapes that
 * need preparing (PP, FF, O, U) are anticipated by a half-weight key shortly before they sound,
 * and tongue-only consonants stay light so the neighbouring vowel's shape carries through.
 */
export const VISEMES = VISEME_NAMES;
export type Viseme = (typeof VISEMES)[number];

/** One IPA segment of a table: the viseme it shows and how strongly (before stress and length). */
interface Segment {
  v: Viseme;
  w: number;
}

const seg = (v: Viseme, w: number): Segment => ({ v, w });

// Weights by articulation: the lips' own shapes are the most visible; the tongue's, the least.
const VOWEL_OPEN = seg('aa', 1);
const LIPS_CLOSED = seg('PP', 1);
const LIP_TEETH = seg('FF', 0.9);
const TONGUE_TEETH = seg('TH', 0.7);
const TONGUE_RIDGE = seg('DD', 0.6);
const VELAR = seg('kk', 0.5);
const POSTALVEOLAR = seg('CH', 0.85);
const SIBILANT = seg('SS', 0.7);
const NASAL_LATERAL = seg('nn', 0.6);
const RHOTIC = seg('RR', 0.7);
const GLOTTAL = seg('kk', 0.3);

/**
 * Spanish, for espeak's `es` and `es-419` voices. Every segment espeak emits for the corpus is
 * here (visemes.test.ts); English vowels appear because espeak keeps loanwords' own sounds.
 */
const SPANISH: Record<string, Segment> = {
  // Vowels.
  a: VOWEL_OPEN,
  e: seg('E', 0.9),
  ɛ: seg('E', 0.9),
  i: seg('I', 0.9),
  o: seg('O', 0.95),
  ɔ: seg('O', 0.95),
  u: seg('U', 0.95),
  // The second halves of espeak's diphthongs (oɪ, eɪ, aʊ, aɪ) and loanword vowels.
  ɪ: seg('I', 0.8),
  ʊ: seg('U', 0.85),
  ə: seg('E', 0.6),
  // Glides.
  j: seg('I', 0.7),
  w: seg('U', 0.8),
  // Consonants.
  p: LIPS_CLOSED,
  b: LIPS_CLOSED,
  m: LIPS_CLOSED,
  // Intervocalic b/v: the lips nearly meet.
  β: seg('PP', 0.7),
  f: LIP_TEETH,
  θ: TONGUE_TEETH,
  // Intervocalic d: dental, the tongue between the teeth.
  ð: seg('TH', 0.6),
  t: TONGUE_RIDGE,
  d: TONGUE_RIDGE,
  n: NASAL_LATERAL,
  l: NASAL_LATERAL,
  ʎ: NASAL_LATERAL,
  ɲ: NASAL_LATERAL,
  ŋ: VELAR,
  k: VELAR,
  ɡ: VELAR,
  ɣ: seg('kk', 0.4),
  x: VELAR,
  h: GLOTTAL,
  s: SIBILANT,
  z: SIBILANT,
  tʃ: POSTALVEOLAR,
  ʃ: POSTALVEOLAR,
  ʝ: seg('CH', 0.7),
  ɾ: RHOTIC,
  r: seg('RR', 0.8),
};

/**
 * English, for espeak's en voices (British, American, Caribbean, Scottish, RP, …). espeak emits
 * some r-coloured and syllabic combinations as one phoneme (`ɑːɹ`, `aɪɚ`, `əl`): they are split
 * into these segments.
 */
const ENGLISH: Record<string, Segment> = {
  // Vowels.
  a: VOWEL_OPEN,
  ɑ: VOWEL_OPEN,
  æ: seg('aa', 0.9),
  ɐ: seg('aa', 0.75),
  ʌ: seg('aa', 0.8),
  ɒ: seg('O', 0.9),
  ɔ: seg('O', 0.95),
  o: seg('O', 0.95),
  e: seg('E', 0.85),
  ɛ: seg('E', 0.9),
  ə: seg('E', 0.55),
  ɜ: seg('E', 0.8),
  // r-coloured schwa: lips round slightly, as for r.
  ɚ: seg('RR', 0.7),
  i: seg('I', 0.9),
  ɪ: seg('I', 0.8),
  ᵻ: seg('I', 0.7),
  u: seg('U', 0.95),
  ʊ: seg('U', 0.85),
  // Scottish and Caribbean voices' central rounded u.
  ʉ: seg('U', 0.9),
  // Glides (ʍ: Scottish "wh").
  j: seg('I', 0.7),
  w: seg('U', 0.85),
  ʍ: seg('U', 0.85),
  // Consonants.
  p: LIPS_CLOSED,
  b: LIPS_CLOSED,
  m: LIPS_CLOSED,
  f: LIP_TEETH,
  v: LIP_TEETH,
  θ: TONGUE_TEETH,
  ð: TONGUE_TEETH,
  t: TONGUE_RIDGE,
  d: TONGUE_RIDGE,
  // The American flap in "water": a quick tongue tap.
  ɾ: seg('DD', 0.5),
  ʔ: GLOTTAL,
  n: NASAL_LATERAL,
  l: NASAL_LATERAL,
  ŋ: VELAR,
  k: VELAR,
  ɡ: VELAR,
  x: VELAR,
  h: GLOTTAL,
  s: SIBILANT,
  z: SIBILANT,
  tʃ: POSTALVEOLAR,
  dʒ: POSTALVEOLAR,
  ʃ: POSTALVEOLAR,
  ʒ: POSTALVEOLAR,
  ɹ: RHOTIC,
  r: RHOTIC,
};

export const VISEME_TABLES: Record<Language, Readonly<Record<string, Segment>>> = {
  es: SPANISH,
  en: ENGLISH,
};

const STRESS = /[ˈˌ]/g;
/** Length marks (espeak writes some as ASCII ':') and combining diacritics (dental, syllabic, …)
 * change timing, not shape. */
const MODIFIERS = /[ːˑ:]|\p{Mn}/gu;
const PAUSE_WEIGHT = 1;
/** A phoneme id without its stress and length marks. */
const plainId = (id: string) => id.replace(STRESS, '').replace(MODIFIERS, '');

/**
 * Splits one espeak phoneme id into table segments, longest match first. `unknown` lists the
 * characters no table entry matched (the coverage test requires none for its corpus).
 */
export function segmentPhoneme(
  id: string,
  language: Language,
): { segments: Segment[]; stressed: boolean; unknown: string[] } {
  const table = VISEME_TABLES[language];
  const stressed = id.includes('ˈ');
  const plain = plainId(id);
  const segments: Segment[] = [];
  const unknown: string[] = [];
  const chars = Array.from(plain);
  for (let i = 0; i < chars.length;) {
    const two = chars.slice(i, i + 2).join('');
    const pair = chars.length - i >= 2 ? table[two] : undefined;
    if (pair) {
      segments.push(pair);
      i += 2;
      continue;
    }
    const one = table[chars[i] ?? ''];
    if (one) segments.push(one);
    else unknown.push(chars[i] ?? '');
    i += 1;
  }
  return { segments, stressed, unknown };
}

/** A phoneme event of the builtin synthesiser: espeak's IPA id (`''` is a pause) at `t` ms. */
export interface PhonemeEvent {
  t: number;
  id: string;
}

/** Phonemes shorter than this get a proportionally lighter weight (min SHORT_FLOOR). */
const SHORT_MS = 60;
const SHORT_FLOOR = 0.45;
/** A lip shape that needs preparing gets a half-weight key this long before it sounds. */
const ANTICIPATE_MS = 40;
const ANTICIPATED: ReadonlySet<Viseme> = new Set(['PP', 'FF', 'O', 'U']);
/** A diphthong's later parts are only keyed when each part would last at least this long. */
const MIN_PART_MS = 25;
/** Unstressed vowels open less. */
const UNSTRESSED_VOWEL = 0.85;
const VOWELS: ReadonlySet<Viseme> = new Set(['aa', 'E', 'I', 'O', 'U']);

const round2 = (n: number) => Math.round(n * 100) / 100;

const BILABIALS: ReadonlySet<string> = new Set(['p', 'b', 'm']);

/**
 * A Spanish n before a bilabial is spoken [m]: the lips shut on the n ("con más" [komˈmas],
 * "también me", "inmenso" — the nasal takes the next consonant's place, as in every variety of
 * Spanish). espeak already writes m before p and b ("un poco": u m p), but keeps n before m,
 * whose lips would then shut ~60 ms late, at the m, inside the nasal murmur that started at the n.
 */
function nasalBeforeLips(phonemes: readonly PhonemeEvent[], i: number, language: Language): boolean {
  const next = phonemes[i + 1];
  return (
    language === 'es' &&
    plainId(phonemes[i]!.id) === 'n' &&
    next !== undefined &&
    BILABIALS.has(plainId(next.id).charAt(0))
  );
}

/**
 * The viseme track of one chunk from its phoneme events. Invariants (visemes.test.ts): keys are in
 * time order with distinct times; every phoneme event has a key at its own time (a later phoneme
 * at the same time replaces an earlier, zero-length one); the track starts at 0 and ends with
 * `sil` no later than `durationMs`.
 */
export function visemesFromPhonemes(
  phonemes: readonly PhonemeEvent[],
  language: Language,
  durationMs: number,
): VisemeKey[] {
  const keys: VisemeKey[] = [];
  const put = (key: VisemeKey) => {
    const last = keys[keys.length - 1];
    if (last && last.t >= key.t) {
      // Same time: the later phoneme is what is heard. Earlier time (anticipation overlap): drop it.
      if (last.t === key.t) keys[keys.length - 1] = key;
      return;
    }
    keys.push(key);
  };

  const first = phonemes[0];
  if (!first || first.t > 0) put({ t: 0, v: 'sil', w: 1 });

  const shapes = phonemes.map((p, i) =>
    nasalBeforeLips(phonemes, i, language)
      ? { segments: [LIPS_CLOSED], stressed: false, unknown: [] }
      : segmentPhoneme(p.id, language),
  );
  for (let i = 0; i < phonemes.length; i++) {
    const phoneme = phonemes[i]!;
    const { segments, stressed } = shapes[i]!;
    const start = phoneme.t;
    const end = Math.max(start, Math.min(durationMs, phonemes[i + 1]?.t ?? durationMs));
    const duration = end - start;
    if (segments.length === 0) {
      // A pause (espeak's empty id) or a phoneme with no visible shape.
      put({ t: start, v: 'sil', w: PAUSE_WEIGHT });
      continue;
    }
    const brevity = duration >= SHORT_MS ? 1 : Math.max(SHORT_FLOOR, duration / SHORT_MS);
    const parts = duration / segments.length >= MIN_PART_MS ? segments.length : 1;
    for (let s = 0; s < parts; s++) {
      const segment = segments[s]!;
      let w = segment.w;
      if (VOWELS.has(segment.v) && !stressed) w *= UNSTRESSED_VOWEL;
      // A closure must show even when brief; other short targets are only approached.
      if (segment.v !== 'PP') w *= brevity;
      put({ t: start + Math.round((duration * s) / parts), v: segment.v, w: round2(w) });
    }
    const next = shapes[i + 1]?.segments[0];
    const nextStart = phonemes[i + 1]?.t;
    const lastKey = keys[keys.length - 1]!;
    if (
      next &&
      nextStart !== undefined &&
      ANTICIPATED.has(next.v) &&
      next.v !== lastKey.v &&
      duration >= 2 * ANTICIPATE_MS &&
      nextStart - ANTICIPATE_MS > lastKey.t
    ) {
      put({ t: nextStart - ANTICIPATE_MS, v: next.v, w: round2(next.w / 2) });
    }
  }

  const last = keys[keys.length - 1];
  if (!last || last.v !== 'sil') {
    const end = Math.max(Math.round(durationMs), (last?.t ?? 0) + 1);
    put({ t: end, v: 'sil', w: 1 });
  }
  return keys;
}

// ── Lip closures (the builtin synthesiser's stops) ────────────────────────────────────────────

/** Stops whose closure is the lips'. */
const BILABIAL_STOPS: ReadonlySet<string> = new Set(['p', 'b']);
const CLOSURE_FRAME_MS = 4;
/** A closure is this far below the loudest frame of the phoneme before it… */
const CLOSURE_DROP_DB = 12;
/** …for at least this long. */
const CLOSURE_MIN_MS = 8;

/**
 * espeak reports a stop at its release: the closure before it — its "prepause", 20–50 ms of near
 * silence at 175 wpm, longer at slower rates — is played before the phoneme event, at the end of
 * the previous phoneme's time. For p and b the lips shut when that silence starts, so each one
 * that follows a sounding phoneme gets an extra event of its own at the closure's start, found in
 * the synthesiser's PCM: the run of frames before the release at least CLOSURE_DROP_DB below the
 * previous phoneme's loudest. The release keeps its event (the lips part there). After a pause the
 * closure is inside the silence (the mouth is already shut): nothing is added.
 *
 * Sometimes the phoneme before the stop is not heard at all: in American English "help" and
 * "we'll pick" espeak's l is coloured into the vowel before it, and its event starts the p's
 * silence (the sound stops within 2 ms of it; lip-sync bench). No lasting quiet run ends its
 * time — all of it is quiet — and its loudest frame is CLOSURE_DROP_DB below the phoneme's before
 * it: the closure starts where the sound fell to that level, looked for from the earlier
 * phoneme's start (a vowel's own fading tail is not the closure). A closure that starts at or before the silent
 * phoneme's event replaces it (the lips are shut through it; keyed, it would open the mouth
 * inside the closure).
 */
export function withLipClosures(
  phonemes: readonly PhonemeEvent[],
  pcm: Int16Array,
  sampleRate: number,
): PhonemeEvent[] {
  const frame = Math.max(1, Math.round((sampleRate * CLOSURE_FRAME_MS) / 1000));
  const levelAt = (ms: number) => {
    const start = Math.round((ms * sampleRate) / 1000);
    const end = Math.min(pcm.length, start + frame);
    let sum = 0;
    for (let i = start; i < end; i++) sum += pcm[i]! * pcm[i]!;
    return 10 * Math.log10(sum / Math.max(1, end - start) + 1);
  };
  /** Frame levels from `from` up to `to` (ms). */
  const levels = (from: number, to: number) => {
    const out: number[] = [];
    for (let t = from; t + CLOSURE_FRAME_MS <= to; t += CLOSURE_FRAME_MS) out.push(levelAt(t));
    return out;
  };
  /** Where the run of frames ≤ `quiet` that ends `heard` (frames from `from`) starts, or null. */
  const closureIn = (heard: number[], from: number, quiet = Math.max(...heard) - CLOSURE_DROP_DB) => {
    let run = heard.length;
    while (run > 0 && heard[run - 1]! <= quiet) run--;
    return run > 0 ? from + run * CLOSURE_FRAME_MS : null;
  };
  const out: PhonemeEvent[] = [];
  phonemes.forEach((phoneme, i) => {
    const previous = phonemes[i - 1];
    const before = phonemes[i - 2];
    if (previous && previous.id !== '' && BILABIAL_STOPS.has(plainId(phoneme.id))) {
      const lasting = (closure: number | null) =>
        closure !== null && phoneme.t - closure >= CLOSURE_MIN_MS ? closure : null;
      const heard = levels(previous.t, phoneme.t);
      let closure = lasting(closureIn(heard, previous.t));
      if (closure === null && before && before.id !== '') {
        const earlier = levels(before.t, previous.t);
        if (Math.max(...heard) <= Math.max(...earlier) - CLOSURE_DROP_DB)
          closure = lasting(closureIn([...earlier, ...heard], before.t, Math.max(...heard)));
      }
      if (closure !== null) {
        if (closure <= previous.t) out.pop();
        out.push({ t: closure, id: phoneme.id });
      }
    }
    out.push(phoneme);
  });
  return out;
}

// ── Estimated timings (providers without phoneme events) ─────────────────────────────────────

const FRAME_MS = 10;
/** Gaps shorter than this inside speech (stop closures, word joins) stay voiced. */
const BRIDGE_MS = 90;
/** Voiced blips shorter than this are noise, not speech. */
const MIN_REGION_MS = 40;
/** A frame is voiced above this fraction of the loud frames' level… */
const RELATIVE_THRESHOLD = 0.08;
/** …and above this absolute level (about −50 dBFS), so silence with hiss stays silent. */
const ABSOLUTE_THRESHOLD = 100;

/** Where the audio has sound: [startMs, endMs) regions from a 10 ms RMS envelope. */
export function voicedRegions(pcm: Int16Array, sampleRate: number): [number, number][] {
  const frame = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const levels: number[] = [];
  for (let start = 0; start < pcm.length; start += frame) {
    const end = Math.min(pcm.length, start + frame);
    let sum = 0;
    for (let i = start; i < end; i++) sum += pcm[i]! * pcm[i]!;
    levels.push(Math.sqrt(sum / (end - start)));
  }
  if (levels.length === 0) return [];
  const sorted = [...levels].sort((a, b) => a - b);
  const loud = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const threshold = Math.max(ABSOLUTE_THRESHOLD, loud * RELATIVE_THRESHOLD);

  // A frame is `frame` samples — 221 at 22 050 Hz, 10.02 ms — so its time comes from its first
  // sample, not from FRAME_MS (counted as 10 ms, a region 20 s in was placed 45 ms early).
  const at = (i: number) => Math.round((i * frame * 1000) / sampleRate);
  const regions: [number, number][] = [];
  levels.forEach((level, i) => {
    if (level < threshold) return;
    const start = at(i);
    const last = regions[regions.length - 1];
    if (last && start - last[1] < BRIDGE_MS) last[1] = at(i + 1);
    else regions.push([start, at(i + 1)]);
  });
  const totalMs = (pcm.length / sampleRate) * 1000;
  return regions
    .filter(([start, end]) => end - start >= MIN_REGION_MS)
    .map(([start, end]) => [start, Math.min(end, Math.round(totalMs))]);
}

const DIGITS: Record<Language, readonly string[]> = {
  es: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
};

/** Spelling → IPA-ish segments, in order of precedence (longest first). Rough by design. */
const SPANISH_SPELLING: [RegExp, string][] = [
  [/^ch/, 'tʃ'],
  [/^ll/, 'ʝ'],
  [/^rr/, 'r'],
  [/^qu(?=[eéií])/, 'k'],
  [/^gu(?=[eéií])/, 'ɡ'],
  [/^gü/, 'ɡw'],
  [/^c(?=[eéií])/, 's'],
  [/^g(?=[eéií])/, 'x'],
  [/^y(?![aeiouáéíóú])/, 'i'],
  [/^[aá]/, 'a'],
  [/^[eé]/, 'e'],
  [/^[ií]/, 'i'],
  [/^[oó]/, 'o'],
  [/^[uúü]/, 'u'],
  [/^h/, ''],
  [/^[cqk]/, 'k'],
  [/^g/, 'ɡ'],
  [/^[zs]/, 's'],
  [/^j/, 'x'],
  [/^[bv]/, 'b'],
  [/^y/, 'ʝ'],
  [/^ñ/, 'ɲ'],
  [/^x/, 'ks'],
  [/^r/, 'ɾ'],
  [/^w/, 'w'],
  [/^[dfklmnpt]/, '$&'],
];

const ENGLISH_SPELLING: [RegExp, string][] = [
  [/^tch/, 'tʃ'],
  [/^igh/, 'aɪ'],
  [/^[sc]h/, 'ʃ'],
  [/^ch/, 'tʃ'],
  [/^th/, 'θ'],
  [/^ph/, 'f'],
  [/^wh/, 'w'],
  [/^ck/, 'k'],
  [/^ng/, 'ŋ'],
  [/^gh/, ''],
  [/^qu/, 'kw'],
  [/^(ee|ea|ie)/, 'i'],
  [/^oo/, 'u'],
  [/^(ou|ow)/, 'aʊ'],
  [/^oa/, 'oʊ'],
  [/^(ai|ay|ei|ey)/, 'eɪ'],
  [/^(oi|oy)/, 'ɔɪ'],
  [/^(au|aw)/, 'ɔ'],
  [/^(er|ir|ur)(?![aeiou])/, 'ɚ'],
  [/^a/, 'æ'],
  [/^e/, 'ɛ'],
  [/^i/, 'ɪ'],
  [/^o/, 'ɑ'],
  [/^u/, 'ʌ'],
  [/^y(?=[aeiou])/, 'j'],
  [/^y/, 'ɪ'],
  [/^c(?=[eiy])/, 's'],
  [/^[cqk]/, 'k'],
  [/^g/, 'ɡ'],
  [/^j/, 'dʒ'],
  [/^x/, 'ks'],
  [/^r/, 'ɹ'],
  [/^[bdfhlmnpstvwz]/, '$&'],
];

const SPELLING: Record<Language, [RegExp, string][]> = { es: SPANISH_SPELLING, en: ENGLISH_SPELLING };

/** A word's approximate segments from its letters. */
function spell(word: string, language: Language): Segment[] {
  const rules = SPELLING[language];
  const segments: Segment[] = [];
  let rest = word;
  while (rest.length > 0) {
    // English's silent final e ("make", "love"), but not in short words ("the", "she").
    if (language === 'en' && rest === 'e' && word.length > 3) break;
    const rule = rules.find(([pattern]) => pattern.test(rest));
    if (!rule) {
      rest = rest.slice(1);
      continue;
    }
    const [pattern, ipa] = rule;
    const match = pattern.exec(rest)![0];
    // A single-letter word ("a", "y", "I") is never silent.
    const sounds = ipa === '' && word.length === 1 ? match : ipa.replace('$&', match);
    segments.push(...segmentPhoneme(sounds, language).segments);
    rest = rest.slice(Math.max(1, match.length));
  }
  return segments;
}

/** Words of the text (letters, digits spelled out), with their approximate segments. */
function spokenWords(text: string, language: Language): { text: string; segments: Segment[] }[] {
  const words: { text: string; segments: Segment[] }[] = [];
  for (const match of text.matchAll(/[\p{L}\p{M}\p{N}'’]+/gu)) {
    const written = match[0];
    const lower = written.toLowerCase().normalize('NFC');
    const spoken = lower.replace(/\p{N}/gu, (digit) => ` ${DIGITS[language][Number(digit)] ?? ''} `);
    const segments = spoken
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((part) => spell(part.replace(/['’]/g, ''), language));
    if (segments.length > 0) words.push({ text: written, segments });
  }
  return words;
}

/** Vowels take longer than consonants; the share of voiced time each segment gets. */
const segmentLength = (s: Segment) => (VOWELS.has(s.v) ? 1 : 0.6);

/**
 * Visemes and word times for audio whose provider gave no timings: the text's letters → rough
 * phonemes per language, laid in order over the voiced regions of the audio envelope, with `sil`
 * over every silence. Keys that open the mouth fall only inside voiced regions.
 */
export function estimateTimings(
  text: string,
  language: Language,
  pcm: Int16Array,
  sampleRate: number,
): { visemes: VisemeKey[]; words: WordTiming[] } {
  const durationMs = Math.round((pcm.length / sampleRate) * 1000);
  const regions = voicedRegions(pcm, sampleRate);
  const words = spokenWords(text, language);
  const units = words.flatMap((word, wordIndex) =>
    word.segments.map((segment, i) => ({ segment, wordIndex, first: i === 0 })),
  );
  const voicedMs = regions.reduce((sum, [start, end]) => sum + (end - start), 0);
  if (units.length === 0 || voicedMs === 0) {
    return { visemes: [{ t: 0, v: 'sil', w: 1 }], words: words.map((w) => ({ t: 0, text: w.text })) };
  }

  /** Voiced time (ms from the start of the first region, counting only sound) → audio time. */
  const toAudioTime = (voiced: number): number => {
    let remaining = voiced;
    for (const [start, end] of regions) {
      if (remaining < end - start) return start + remaining;
      remaining -= end - start;
    }
    const lastRegion = regions[regions.length - 1]!;
    return lastRegion[1] - 1;
  };

  const totalLength = units.reduce((sum, u) => sum + segmentLength(u.segment), 0);
  const scale = voicedMs / totalLength;
  const keys: VisemeKey[] = [];
  const put = (key: VisemeKey) => {
    const last = keys[keys.length - 1];
    if (last && last.t >= key.t) {
      if (last.t === key.t) keys[keys.length - 1] = key;
      return;
    }
    keys.push(key);
  };
  const wordTimes: WordTiming[] = [];
  const regionEnds = regions.map(([, end]) => end);
  let cursor = 0;
  let regionIndex = 0;
  if (regions[0]![0] > 0) put({ t: 0, v: 'sil', w: 1 });
  for (const unit of units) {
    const t = Math.round(toAudioTime(cursor));
    // Close the mouth over every silence passed on the way here.
    while (regionIndex < regionEnds.length - 1 && t >= regions[regionIndex + 1]![0]) {
      put({ t: regionEnds[regionIndex]!, v: 'sil', w: 1 });
      regionIndex++;
    }
    const length = segmentLength(unit.segment) * scale;
    const brevity = length >= SHORT_MS ? 1 : Math.max(SHORT_FLOOR, length / SHORT_MS);
    put({ t, v: unit.segment.v, w: round2(unit.segment.w * (unit.segment.v === 'PP' ? 1 : brevity)) });
    if (unit.first) wordTimes.push({ t, text: words[unit.wordIndex]!.text });
    cursor += length;
  }
  for (; regionIndex < regionEnds.length; regionIndex++) {
    put({ t: regionEnds[regionIndex]!, v: 'sil', w: 1 });
  }
  if (keys[keys.length - 1]!.t > durationMs) keys[keys.length - 1]!.t = durationMs;
  return { visemes: keys, words: wordTimes };
}

/** The viseme track alone; see `estimateTimings`. */
export function estimateVisemes(
  text: string,
  language: Language,
  pcm: Int16Array,
  sampleRate: number,
): VisemeKey[] {
  return estimateTimings(text, language, pcm, sampleRate).visemes;
}
