import { describe, expect, it } from 'vitest';
import {
  closingOnsets,
  closures,
  lateBy,
  mouthEvents,
  murmurOnsets,
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
 * voice) or a hiss (harmonics from 2 kHz on only: a fricative's noise, unvoiced). Under it all, a
 * faint white noise (−70 dB), as in any recording's silences.
 */
type Shape = 'vowel' | 'murmur' | 'hiss';
function voice(totalMs: number, spans: [from: number, to: number, shape: Shape][]): Float32Array {
  const pcm = new Float32Array(Math.round((totalMs * RATE) / 1000));
  const gain = (shape: Shape, h: number) =>
    shape === 'vowel' ? 1 / h : shape === 'murmur' ? (h <= 2 ? 4 / h : 0) : h * 150 >= 2000 ? 3 / h : 0;
  let seed = 1;
  for (let i = 0; i < pcm.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const ms = (i / RATE) * 1000;
    const shape = spans.find(([from, to]) => ms >= from && ms < to)?.[2];
    let x = 0;
    if (shape)
      for (let h = 1; h * 150 < 5000; h++) x += gain(shape, h) * Math.sin((2 * Math.PI * 150 * h * i) / RATE);
    pcm[i] = 0.1 * x + 3e-4 * (seed / 2 ** 30 - 1);
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
    // The judge: a closure keyed where the murmur starts is within a few ms; keyed 60 ms late
    // (the bench's control), it is not within the window.
    const keys = [key(0, 'sil'), key(20, 'aa'), key(500, 'PP'), key(580, 'aa'), key(980, 'sil')];
    const judged = (shift = lateBy(0)) =>
      offsets(
        pcm,
        mouthEvents(keys, 1000, shift).filter((e) => e.kind === 'closure'),
      );
    expect(Math.abs(judged()[0]!)).toBeLessThanOrEqual(8);
    expect(summary(judged(lateBy(60))).withinPct).toBe(0);
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
