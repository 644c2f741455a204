import { describe, expect, it } from 'vitest';
import {
  closingOnsets,
  closures,
  mouthEvents,
  offsets,
  RATE,
  soundEvents,
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
      mouthEvents(keys, 700, delay).filter((e) => e.kind === 'closure'),
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
});
