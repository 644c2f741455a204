import { createBuiltinSynthesizer } from '@alma/server';
import type { Language } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import {
  closingOnsets,
  closures,
  lateBy,
  mouthEvents,
  murmurOnsets,
  bilabialMurmurOnsets,
  offsets,
  randomClosures,
  RATE,
  soundEvents,
  summary,
  type VisemeKey,
} from '../bench/support/lipsync-analysis.ts';

/**
 * The lip-sync bench's judge (tests/bench/support/lipsync-analysis.ts) on sounds whose events are
 * known to the sample: a voiced buzz (150 Hz and its harmonics to 5 kHz) with silences cut in it.
 */
function buzz(totalMs: number, silences: [number, number][]): Float32Array {
  const pcm = new Float32Array(Math.round((totalMs * RATE) / 1000));
  for (let i = 0; i < pcm.length; i++) {
    const ms = (i / RATE) * 1000;
    if (silences.some(([from, to]) => ms >= from && ms < to)) continue;
    let x = 0;
    for (let h = 1; h * 150 < 5000; h++) x += Math.sin((2 * Math.PI * 150 * h * i) / RATE) / h;
    pcm[i] = 0.2 * x;
  }
  return pcm;
}

const key = (t: number, v: string, w = 1): VisemeKey => ({ t, v, w });

/**
 * A voice at 150 Hz whose shape changes at known times: a vowel (harmonics at 1/h to 5 kHz, most
 * of its energy above 500 Hz), an m's murmur (only the first two harmonics, four times as loud:
 * nothing above 400 Hz, and louder than the vowel below it — the lips shut, the nose carries the
 * voice) or a hiss (harmonics from 2 kHz on only: a fricative's noise, unvoiced). The nasals and
 * the vowels closest to them, by band (the harmonics below 450 Hz at 1): a back vowel `u` (its
 * second formant under 1 kHz, little above); an `m` (a zero at 500–1000 Hz, weak nasal resonances
 * at 1–3 kHz above it, little above 3 kHz — the bilabial nasal); an `n` (its zero in 1–3 kHz); a
 * front vowel `i` (its upper formants at 2–4 kHz); a dark vowel `ə` (its formants evenly up to
 * 2 kHz, nothing above, like espeak's r-coloured ones). `quiet`: the shape that many dB down. Under it
 * all, a faint white noise (−70 dB), as in any recording's silences.
 */
type Shape = 'vowel' | 'murmur' | 'hiss' | 'u' | 'm' | 'n' | 'i' | 'ə';
type Span = [from: number, to: number, shape: Shape, quiet?: number];
/** Each harmonic's amplitude by band: [up to Hz, amplitude], in order. */
const bands =
  (...steps: [number, number][]) =>
  (hz: number) =>
    steps.find(([upTo]) => hz < upTo)?.[1] ?? 0;
const GAINS: Record<Shape, (hz: number, h: number) => number> = {
  vowel: (_, h) => 1 / h,
  murmur: (_, h) => (h <= 2 ? 4 / h : 0),
  hiss: (hz, h) => (hz >= 2000 ? 3 / h : 0),
  u: bands([450, 1], [1000, 0.4], [3000, 0.04], [5000, 0.01]),
  m: bands([450, 1], [1000, 0.01], [3000, 0.06], [5000, 0.005]),
  n: bands([450, 1], [1000, 0.06], [3000, 0.01], [5000, 0.005]),
  i: bands([450, 1], [2000, 0.05], [4000, 0.3], [5000, 0.05]),
  ə: bands([450, 1], [2000, 0.3], [5000, 0.002]),
};
/**
 * The judge on `pcm` whose lips shut at 500 ms (after a `before` key at 20 ms): a closure keyed
 * there is within a few ms; keyed 60 ms late (the bench's control), it is not within the window.
 */
function expectClosureJudgedAt500(pcm: Float32Array, before: string): void {
  const keys = [key(0, 'sil'), key(20, before), key(500, 'PP'), key(580, 'aa'), key(980, 'sil')];
  const judged = (shift = lateBy(0)) =>
    offsets(
      pcm,
      mouthEvents(keys, 1000, shift).filter((e) => e.kind === 'closure'),
    );
  expect(Math.abs(judged()[0]!)).toBeLessThanOrEqual(8);
  expect(summary(judged(lateBy(60))).withinPct).toBe(0);
}

function voice(totalMs: number, spans: Span[]): Float32Array {
  const pcm = new Float32Array(Math.round((totalMs * RATE) / 1000));
  let seed = 1;
  for (let i = 0; i < pcm.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const ms = (i / RATE) * 1000;
    const span = spans.find(([from, to]) => ms >= from && ms < to);
    let x = 0;
    if (span)
      for (let h = 1; h * 150 < 5000; h++)
        x += GAINS[span[2]](150 * h, h) * Math.sin((2 * Math.PI * 150 * h * i) / RATE);
    pcm[i] = 0.1 * x * 10 ** (-(span?.[3] ?? 0) / 20) + 3e-4 * (seed / 2 ** 30 - 1);
  }
  return pcm;
}

const near = (landmarks: number[], at: number, within: number) =>
  landmarks.filter((ms) => Math.abs(ms - at) <= within);

describe('the lip-sync judge', () => {
  it('places the sound’s events where they are at the end of a long reply (frames are 44 samples, not 2 ms)', () => {
    const sound = soundEvents(buzz(16_000, [[15_000, 15_100]]));
    // Counted as 2 ms, each frame put events 0.23 % late: 15 034 and 15 134. (Within the 8 ms
    // energy window's reach of the edge.)
    for (const [found, at] of [
      [sound.offsets, 15_000],
      [sound.onsets, 15_100],
    ] as const)
      expect(Math.min(...found.map((ms) => Math.abs(ms - at)))).toBeLessThanOrEqual(8);
  });

  it('finds a closure of 25 ms (espeak’s shortest) where the sound falls into it, and not a 10 ms dip', () => {
    const landmarks = closures(
      buzz(3000, [
        [1000, 1025],
        [2000, 2010],
      ]),
    );
    expect(Math.min(...landmarks.map((ms) => Math.abs(ms - 1000)))).toBeLessThanOrEqual(6);
    expect(landmarks.filter((ms) => Math.abs(ms - 2000) <= 60)).toEqual([]);
  });

  it('the mouth’s closing onsets leave out anticipations and a closure’s release', () => {
    const keys = [
      key(0, 'sil'),
      key(100, 'aa'),
      key(200, 'kk', 0.5),
      key(260, 'PP', 0.5), // anticipation of the closure
      key(300, 'PP'),
      key(340, 'PP'), // release
      key(370, 'aa'),
      key(500, 'nn', 0.6),
      key(600, 'sil'),
      key(607, 'sil'),
    ];
    expect(closingOnsets(keys)).toEqual([0, 200, 300, 500, 600]);
  });

  it('matches a closure only to a landmark nearer to it than to the mouth’s other closing onsets', () => {
    // The sound falls silent at 300 (a k's closure) and nowhere else near; the mouth keys a k at
    // 300 and a b's closure at 380. Nearest-within-120 ms took the k's fall (+80 ms).
    const pcm = buzz(1000, [
      [0, 100],
      [300, 360],
      [900, 1000],
    ]);
    const keys = [
      key(0, 'sil'),
      key(100, 'aa'),
      key(300, 'kk', 0.5),
      key(380, 'PP'),
      key(410, 'PP'),
      key(430, 'RR', 0.7),
      key(900, 'sil'),
    ];
    const events = mouthEvents(keys, 1000);
    const closure = events.find((e) => e.kind === 'closure');
    expect(closure).toMatchObject({ ms: 380, cell: [340, 400] });
    expect(offsets(pcm, [closure!])).toEqual([null]);
    // Keyed where the sound falls, it is found there (within the envelope's 8 ms window).
    const onTime = mouthEvents(
      keys.map((k) => (k.t === 300 ? key(250, 'kk', 0.5) : k.t === 380 ? key(300, 'PP') : k)),
      1000,
    ).find((e) => e.kind === 'closure')!;
    expect(Math.abs(offsets(pcm, [onTime])[0]!)).toBeLessThanOrEqual(8);
  });

  it('does not take the silence of a p behind an m for the m’s closure (the lips are already shut)', () => {
    // espeak's "un poco": u, m at 300, the p's closure silent 380–430, its release at 430. The m's
    // own fall is not in this sound; the p's (80 ms after the m) is not the m's.
    const pcm = buzz(1000, [
      [0, 100],
      [380, 430],
      [900, 1000],
    ]);
    const keys = [
      key(0, 'sil'),
      key(100, 'U'),
      key(260, 'PP', 0.5),
      key(300, 'PP'),
      key(380, 'PP'),
      key(430, 'PP'),
      key(460, 'O'),
      key(900, 'sil'),
    ];
    const closure = mouthEvents(keys, 1000).filter((e) => e.kind === 'closure');
    expect(closure).toEqual([{ kind: 'closure', ms: 300, cell: [150, 370] }]);
    expect(offsets(pcm, closure)).toEqual([null]);
  });

  it('the control keys every judged closure later, its cell with it', () => {
    const keys = [
      key(0, 'sil'),
      key(100, 'aa'),
      key(300, 'PP'),
      key(340, 'PP'),
      key(400, 'aa'),
      key(600, 'nn'),
    ];
    const [now, late] = [0, 60].map((delay) =>
      mouthEvents(keys, 700, lateBy(delay)).filter((e) => e.kind === 'closure'),
    );
    expect(now).toEqual([{ kind: 'closure', ms: 300, cell: [150, 330] }]);
    expect(late).toEqual([{ kind: 'closure', ms: 360, cell: [180, 390] }]);
  });

  it('does not judge a closure after a pause (the lips are already shut) nor its release', () => {
    const keys = [key(0, 'sil'), key(48, 'PP'), key(80, 'U'), key(200, 'PP'), key(240, 'PP'), key(280, 'E')];
    expect(
      mouthEvents(keys, 400)
        .filter((e) => e.kind === 'closure')
        .map((e) => e.ms),
    ).toEqual([200]);
  });

  it('finds where an m’s murmur starts inside voiced speech, though the sound gets no quieter', () => {
    // Vowel 0–500, murmur 500–580, vowel again: the murmur is louder below 400 Hz than the vowel,
    // so neither the energy nor the high-frequency energy falls steeply at 500.
    const pcm = voice(1000, [
      [0, 500, 'vowel'],
      [500, 580, 'murmur'],
      [580, 1000, 'vowel'],
    ]);
    expect(near(closures(pcm), 500, 8)).toHaveLength(1);
    // Only the murmur's start: its end (the lips parting) is not a closure.
    expect(near(closures(pcm), 580, 40)).toEqual([]);
    expectClosureJudgedAt500(pcm, 'aa');
  });

  it('a murmur lasts: a 20 ms one is a formant’s dip, not an m', () => {
    const pcm = voice(1000, [
      [0, 500, 'vowel'],
      [500, 520, 'murmur'],
      [520, 1000, 'vowel'],
    ]);
    expect(near(murmurOnsets(pcm), 500, 40)).toEqual([]);
  });

  it('a murmur starts from sound: a voice starting out of silence is no closure', () => {
    // Silence, then the murmur-shaped voice: its balance "falls" from the silence's, which is noise.
    const pcm = voice(1000, [
      [300, 700, 'murmur'],
      [700, 1000, 'vowel'],
    ]);
    expect(near(murmurOnsets(pcm), 300, 40)).toEqual([]);
  });

  it('a murmur is voiced: a hiss falling into silence is a stop’s closure, not a murmur', () => {
    // "st": the hiss's balance is all high; the silence's is the noise floor's, far lower.
    const pcm = voice(1000, [
      [0, 400, 'vowel'],
      [400, 500, 'hiss'],
      [560, 1000, 'vowel'],
    ]);
    expect(near(murmurOnsets(pcm), 500, 40)).toEqual([]);
    // …which the high-frequency fall finds.
    expect(near(closures(pcm), 500, 8)).toHaveLength(1);
  });

  it('finds where an m starts after a u, where the bands’ balance barely moves: its zero takes 500–1000 Hz down', () => {
    // espeak's "un poco", "humanos": the u's second formant and the m's zero share 500–1000 Hz,
    // the balance of 500–5000 Hz against the murmur band falls < 12 dB, the sound no quieter.
    const pcm = voice(1000, [
      [0, 500, 'u'],
      [500, 580, 'm'],
      [580, 1000, 'vowel'],
    ]);
    expect(near(murmurOnsets(pcm), 500, 40)).toEqual([]);
    expect(near(closures(pcm), 500, 8)).toHaveLength(1);
    // Only where the shape starts: the lips parting at 580 are not a closure.
    expect(near(bilabialMurmurOnsets(pcm), 580, 40)).toEqual([]);
    expectClosureJudgedAt500(pcm, 'U');
  });

  it('finds where an m starts after an i, where what goes is above 3 kHz', () => {
    // espeak's "comimos" (where the high-frequency fall is 11 dB: here the i is brighter).
    const pcm = voice(1000, [
      [0, 500, 'i'],
      [500, 580, 'm'],
      [580, 1000, 'vowel'],
    ]);
    expect(near(murmurOnsets(pcm), 500, 40)).toEqual([]);
    expect(near(bilabialMurmurOnsets(pcm), 500, 8)).toHaveLength(1);
  });

  it.each([
    [
      'an n is no m: its zero lies in 1–3 kHz, not under it',
      500,
      [
        [0, 500, 'u'],
        [500, 580, 'n'],
        [580, 1000, 'vowel'],
      ],
    ],
    [
      'a dark vowel is no m: its formants under 3 kHz are not under a murmur',
      300,
      [
        [0, 300, 'u'],
        [300, 700, 'ə'],
        [700, 1000, 'vowel'],
      ],
    ],
    [
      'an i is no m: its upper formants sound above 3 kHz',
      300,
      [
        [0, 300, 'vowel'],
        [300, 700, 'i'],
        [700, 1000, 'vowel'],
      ],
    ],
    [
      'an m’s shape lasts: 20 ms of it is no m',
      500,
      [
        [0, 500, 'u'],
        [500, 520, 'm'],
        [520, 1000, 'u'],
      ],
    ],
  ] as [string, number, Span[]][])('%s', (_, at, segments) => {
    expect(near(bilabialMurmurOnsets(voice(1000, segments)), at, 40)).toEqual([]);
  });

  it('an m out of a pause is no closure (the lips were shut in it); out of a 14 ms join it is', () => {
    const paused = voice(1000, [
      [0, 300, 'vowel'],
      [400, 600, 'm'],
      [600, 1000, 'vowel'],
    ]);
    expect(near(bilabialMurmurOnsets(paused), 400, 40)).toEqual([]);
    // espeak's "al mar", "tell me": ~14 ms of near silence between the l and the m.
    const joined = voice(1000, [
      [0, 386, 'vowel'],
      [400, 480, 'm'],
      [480, 1000, 'vowel'],
    ]);
    expect(near(bilabialMurmurOnsets(joined), 400, 8)).toHaveLength(1);
  });

  it('an m’s shape is voiced: 37 dB down (a ring-out, under the reply’s silence) it is no murmur', () => {
    const pcm = voice(1000, [
      [0, 400, 'u'],
      [400, 600, 'm', 37],
      [600, 1000, 'vowel'],
    ]);
    expect(near(bilabialMurmurOnsets(pcm), 400, 40)).toEqual([]);
  });

  it('an m’s shape broken for a moment is one m', () => {
    const pcm = voice(1000, [
      [0, 500, 'u'],
      [500, 545, 'm'],
      [545, 547, 'u'],
      [547, 620, 'm'],
      [620, 1000, 'vowel'],
    ]);
    expect(near(bilabialMurmurOnsets(pcm), 540, 60)).toHaveLength(1);
  });

  it('the random control keys closures away from every real one and out of the pauses, the same every run', () => {
    // Closures (with a silent closure each, as a p has) at 400, 1400 and 2400; a pause 1800–2000.
    const pcm = buzz(3000, [
      [0, 100],
      [400, 440],
      [1400, 1440],
      [1800, 2000],
      [2400, 2440],
      [2900, 3000],
    ]);
    const keys = [
      key(0, 'sil'),
      key(100, 'aa'),
      ...[400, 1400, 2400].flatMap((t) => [key(t, 'PP'), key(t + 40, 'PP'), key(t + 70, 'aa')]),
      key(1800, 'sil'),
      key(2000, 'E'),
      key(2900, 'sil'),
    ];
    const real = mouthEvents(keys, 3000).filter((e) => e.kind === 'closure');
    expect(real.map((e) => e.ms)).toEqual([400, 1400, 2400]);
    expect(offsets(pcm, real).map((v) => Math.abs(v!) <= 8)).toEqual([true, true, true]);
    const drawn = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((seed) =>
      mouthEvents(keys, 3000, randomClosures(keys, 3000, seed)).filter((e) => e.kind === 'closure'),
    );
    for (const { ms } of drawn) {
      expect(ms).toBeGreaterThanOrEqual(100);
      expect(ms).toBeLessThanOrEqual(2900);
      expect(ms >= 1800 && ms <= 2000, `${ms} in the pause`).toBe(false);
      for (const c of [400, 1400, 2400]) expect(ms - c < -140 || ms - c > 60, `${ms} near ${c}`).toBe(true);
    }
    expect(new Set(drawn.map((e) => Math.round(e.ms))).size).toBe(drawn.length);
    // Seeded: the same draw twice.
    expect(mouthEvents(keys, 3000, randomClosures(keys, 3000, 3))).toEqual(
      mouthEvents(keys, 3000, randomClosures(keys, 3000, 3)),
    );
    // The sound's only closures are the real ones: none of the random ones is judged within.
    expect(summary(offsets(pcm, drawn)).withinPct).toBe(0);
  });
});

describe('the lip-sync judge on espeak’s speech', () => {
  const synth = createBuiltinSynthesizer();
  /** espeak speaks `text`: its sound (as floats) and phoneme events. */
  async function spoken(text: string, language: Language, voice: string) {
    const result = await synth.synthesizeDetailed({
      text,
      language,
      voice: { voice },
      signal: new AbortController().signal,
    });
    expect(result.sampleRate).toBe(RATE);
    return { pcm: Float32Array.from(result.pcm, (s) => s / 32_768), phonemes: result.phonemes };
  }
  const plain = (id: string) => id.replace(/[ˈˌː]/g, '');

  it.each([
    ['es', 'es+f3', 'Un poco, un pueblo muy humano; comimos al mar con el mejor.'],
    ['en', 'en-us+f3', 'You managed to tell me: we walk miles, in warm mornings, by the lime trees.'],
  ] as const)(
    'finds every m after a sound where it starts, and no n or ŋ as an m (%s)',
    async (language, voice, text) => {
      const { pcm, phonemes } = await spoken(text, language, voice);
      const landmarks = closures(pcm);
      // An m after a sound (not after a pause, nor after another m: the lips are already shut).
      const ms = phonemes.filter(
        (p, i) => plain(p.id) === 'm' && !['', 'm'].includes(plain(phonemes[i - 1]?.id ?? '')),
      );
      expect(ms.length).toBeGreaterThanOrEqual(5);
      for (const m of ms) expect(near(landmarks, m.t, 12), `the m at ${m.t}`).not.toEqual([]);
      const bilabial = bilabialMurmurOnsets(pcm);
      for (const n of phonemes.filter((p) => ['n', 'ŋ'].includes(plain(p.id))))
        expect(near(bilabial, n.t, 30), `the ${n.id} at ${n.t}`).toEqual([]);
    },
  );
});
