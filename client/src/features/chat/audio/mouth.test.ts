import { describe, expect, it } from 'vitest';
import { MOUTH_ANTICIPATION_MS, mouthFrameAt, mouthStateAt } from './mouth.ts';

const TRACK = [
  { t: 0, v: 'sil', w: 0 },
  { t: 100, v: 'aa', w: 0.9 },
  { t: 300, v: 'PP', w: 1 },
];

describe('the mouth at a moment of a chunk', () => {
  it('shows the last viseme whose time has come; silence before the first', () => {
    expect(mouthStateAt([{ t: 50, v: 'O', w: 0.7 }], 20)).toEqual({ viseme: 'sil', weight: 0 });
    expect(mouthStateAt(TRACK, 99)).toEqual({ viseme: 'sil', weight: 0 });
    expect(mouthStateAt(TRACK, 100)).toEqual({ viseme: 'aa', weight: 0.9 });
    expect(mouthStateAt(TRACK, 1000)).toEqual({ viseme: 'PP', weight: 1 });
  });

  it(`blends toward the next viseme over the ${MOUTH_ANTICIPATION_MS} ms before its onset`, () => {
    expect(mouthFrameAt(TRACK, 150)).toEqual({
      viseme: 'aa',
      weight: 0.9,
      next: 'PP',
      nextWeight: 1,
      blend: 0,
    });
    expect(mouthFrameAt(TRACK, 300 - MOUTH_ANTICIPATION_MS / 2).blend).toBeCloseTo(0.5, 9);
    expect(mouthFrameAt(TRACK, 350)).toEqual({
      viseme: 'PP',
      weight: 1,
      next: null,
      nextWeight: 0,
      blend: 0,
    });
    expect(mouthFrameAt([{ t: 50, v: 'O', w: 0.7 }], 20)).toEqual({
      viseme: 'sil',
      weight: 0,
      next: 'O',
      nextWeight: 0.7,
      blend: 0.5,
    });
  });
});
