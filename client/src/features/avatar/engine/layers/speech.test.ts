import { describe, expect, it } from 'vitest';
import { mouthTargets, smoothMouth, type CoarticulatedMouthSource } from './speech';

/* The recorded-reply lip-sync test reads tests/replays, so it lives there: tests/replays/avatar-lipsync.test.ts. */

describe('speech: coarticulation', () => {
  it('rises with the attack and falls with the slower release', () => {
    let mouth: Record<string, number> = {};
    mouth = smoothMouth(mouth, { aa: 1 }, 30);
    const risen = mouth.aa ?? 0;
    expect(risen).toBeGreaterThan(0.55);
    expect(risen).toBeLessThan(0.7);
    const before = mouth.aa ?? 0;
    mouth = smoothMouth(mouth, { PP: 1 }, 30);
    // The old viseme lingers (release 70 ms) while the new one rises: the shapes overlap.
    expect(mouth.aa).toBeGreaterThan(0.25 * before);
    expect(mouth.PP).toBeGreaterThan(0.55);
  });

  it('anticipates the next viseme when the source says what comes next', () => {
    const source: CoarticulatedMouthSource = {
      getMouthState: () => ({ viseme: 'aa', weight: 1 }),
      getMouthFrame: () => ({ viseme: 'aa', weight: 1, next: 'PP', nextWeight: 1, blend: 0.5 }),
    };
    const { targets } = mouthTargets(source);
    expect(targets).toEqual({ aa: 0.5, PP: 0.5 });
    expect(mouthTargets({ getMouthState: () => ({ viseme: 'viseme_O', weight: 0.7 }) }).targets).toEqual({
      O: 0.7,
    });
  });
});
