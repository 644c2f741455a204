import { describe, expect, it } from 'vitest';
import { FRAME_MS, visemesFromLoudness } from './loudness-visemes.ts';

const RATE = 16_000;

/** `parts` of [ms, amplitude, Hz] back to back: tones for vowels, a high tone for a hiss, 0 for silence. */
function signal(parts: [number, number, number][]): Float32Array {
  const total = parts.reduce((n, [ms]) => n + (ms * RATE) / 1000, 0);
  const out = new Float32Array(total);
  let at = 0;
  for (const [ms, amplitude, hz] of parts) {
    const n = (ms * RATE) / 1000;
    for (let i = 0; i < n; i++) out[at + i] = amplitude * Math.sin((2 * Math.PI * hz * i) / RATE);
    at += n;
  }
  return out;
}

describe('replay lip sync from loudness (SPEC.md ST-5)', () => {
  it('closes the mouth in silence and opens it wide on a loud vowel, at the times they sound', () => {
    const track = visemesFromLoudness(
      signal([
        [200, 0, 0],
        [200, 0.8, 220],
        [200, 0, 0],
      ]),
      RATE,
    );
    expect(track[0]).toEqual({ t: 0, v: 'sil', w: 0 });
    const open = track.find((k) => k.v === 'aa');
    expect(open?.t).toBe(200);
    expect(open?.w).toBeGreaterThan(0.9);
    expect(track[track.length - 1]).toMatchObject({ t: 400, v: 'sil', w: 0 });
  });

  it('shows a sibilant for noise-like sound and a half-open mouth for quieter voicing, rounded when dark', () => {
    const track = visemesFromLoudness(
      signal([
        [200, 0.8, 200],
        [200, 0.4, 3500],
        [200, 0.35, 200],
        [200, 0.35, 900],
      ]),
      RATE,
    );
    expect(track.map((k) => k.v)).toEqual(['aa', 'SS', 'O', 'E']);
    expect(track.map((k) => k.t)).toEqual([0, 200, 400, 600]);
  });

  it('emits a key only where the shape changes, on the frame grid', () => {
    const track = visemesFromLoudness(signal([[1000, 0.8, 220]]), RATE);
    expect(track).toHaveLength(1);
    for (const k of visemesFromLoudness(
      signal([
        [120, 0, 0],
        [120, 0.8, 220],
      ]),
      RATE,
    ))
      expect(k.t % FRAME_MS).toBe(0);
  });

  it('answers no keys for no audio', () => {
    expect(visemesFromLoudness(new Float32Array(0), RATE)).toEqual([]);
    expect(visemesFromLoudness(new Float32Array(100), 0)).toEqual([]);
  });
});
