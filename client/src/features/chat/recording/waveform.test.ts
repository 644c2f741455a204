import { describe, expect, it } from 'vitest';
import { peaksOf, seekTarget } from './waveform.ts';

describe('seekTarget (the preview waveform as a keyboard slider)', () => {
  it('arrows move 1 s, Page keys 5 s, Home/End jump to the ends, all within the note', () => {
    expect(seekTarget('ArrowRight', 1, 4)).toBe(2);
    expect(seekTarget('ArrowUp', 3.5, 4)).toBe(4);
    expect(seekTarget('ArrowLeft', 0.4, 4)).toBe(0);
    expect(seekTarget('ArrowDown', 2, 4)).toBe(1);
    expect(seekTarget('PageUp', 1, 10)).toBe(6);
    expect(seekTarget('PageDown', 3, 10)).toBe(0);
    expect(seekTarget('Home', 3, 10)).toBe(0);
    expect(seekTarget('End', 3, 10)).toBe(10);
    expect(seekTarget('a', 3, 10)).toBeNull();
    expect(seekTarget('Tab', 3, 10)).toBeNull();
  });
});

describe('peaksOf', () => {
  it('keeps the loudest sample of each slice, as a magnitude', () => {
    const samples = Float32Array.from([0.1, -0.5, 0.2, 0.3, -0.9, 0, 0.05, 0.02]);
    expect(Array.from(peaksOf(samples, 4))).toEqual([
      0.5, 0.30000001192092896, 0.8999999761581421, 0.05000000074505806,
    ]);
    expect(peaksOf(samples, 100)).toHaveLength(8);
    expect(peaksOf(new Float32Array(0))).toHaveLength(1);
  });
});
