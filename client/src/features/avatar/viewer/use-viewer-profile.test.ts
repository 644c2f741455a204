import { describe, expect, it } from 'vitest';
import { frameDue } from './FrameRateCap.tsx';
import { SOFTWARE_RENDERER_FPS, viewerProfile } from './use-viewer-profile.ts';

describe('viewerProfile', () => {
  it('a desktop with a GPU: the display rate, antialiasing, shadows on a strong machine', () => {
    const profile = viewerProfile(1280, 2, 8);
    expect(profile).toMatchObject({ mobile: false, antialias: true, shadows: true, maxFps: null });
    expect(profile.dpr).toEqual([1, 2]);
  });

  it('a software renderer: one pixel per CSS pixel, no multisampling or shadow pass, 30 frames a second', () => {
    const profile = viewerProfile(1280, 2, 8, true);
    expect(profile).toMatchObject({ antialias: false, shadows: false, maxFps: SOFTWARE_RENDERER_FPS });
    expect(profile.dpr).toEqual([1, 1]);
    expect(viewerProfile(375, 3, 8, true).maxFps).toBe(SOFTWARE_RENDERER_FPS);
  });

  it('a phone keeps its canvas cap and zoom range whatever draws it (spec §2)', () => {
    expect(viewerProfile(375, 3, 8).size).toEqual({ width: 320, height: 240 });
    expect(viewerProfile(375, 3, 8, true).zoom).toEqual({ min: 2, max: 6 });
  });
});

describe('frameDue', () => {
  /** Frames drawn over one second of a display refreshing at `hz`, with a little jitter. */
  function framesDrawn(hz: number, fps: number): number {
    let last = -Infinity;
    let drawn = 0;
    for (let i = 0; i < hz; i++) {
      const now = (i * 1000) / hz + (i % 3 === 0 ? -1.5 : 1.5);
      if (frameDue(now, last, fps)) {
        last = now;
        drawn++;
      }
    }
    return drawn;
  }

  it('30 a second on 60, 120 and 144 Hz displays; every refresh on a 30 Hz one', () => {
    expect(framesDrawn(60, 30)).toBe(30);
    expect(framesDrawn(120, 30)).toBeGreaterThanOrEqual(29);
    expect(framesDrawn(120, 30)).toBeLessThanOrEqual(31);
    expect(framesDrawn(144, 30)).toBeGreaterThanOrEqual(28);
    expect(framesDrawn(144, 30)).toBeLessThanOrEqual(37);
    expect(framesDrawn(30, 30)).toBe(30);
  });
});
