import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextSimulatedProgress, SIMULATED_CAP, startSimulatedProgress } from './progress.ts';

describe('simulated transcription progress (spec §4 Voice note)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('rises by at most 15 per step and never past 90', () => {
    expect(nextSimulatedProgress(0, 0.999)).toBe(15);
    expect(nextSimulatedProgress(0, 0)).toBeGreaterThan(0);
    expect(nextSimulatedProgress(85, 0.999)).toBe(90);
    expect(nextSimulatedProgress(90, 0.5)).toBe(90);
  });

  it('steps every 0.5 s, ≤ 15 each, capped at 90, and stops when real progress takes over', () => {
    let value: number | null = 0;
    const seen: number[] = [];
    const stop = startSimulatedProgress(
      () => value,
      (p) => {
        seen.push(p);
        value = p;
      },
      Math.random,
    );
    vi.advanceTimersByTime(499);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toHaveLength(1);
    vi.advanceTimersByTime(30_000);
    let previous = 0;
    for (const p of seen) {
      expect(p - previous).toBeLessThanOrEqual(15);
      expect(p).toBeLessThanOrEqual(SIMULATED_CAP);
      previous = p;
    }
    expect(seen.at(-1)).toBe(SIMULATED_CAP);
    const count = seen.length;
    value = null;
    vi.advanceTimersByTime(5_000);
    expect(seen).toHaveLength(count);
    stop();
  });
});
