import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPacer } from './pace.ts';

describe('createPacer', () => {
  afterEach(() => vi.useRealTimers());

  /** Runs `count` pieces through a pacer and records when each was released. */
  async function release(count: number, onPiece: (index: number) => void) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const pacer = createPacer(100);
    const times: number[] = [];
    const run = (async () => {
      for (let i = 0; i < count; i++) {
        await pacer.wait(i, new AbortController().signal);
        times.push(performance.now());
        onPiece(i);
      }
    })();
    await vi.runAllTimersAsync();
    await run;
    return times.map((t) => t - times[0]!);
  }

  it('releases piece n at n × interval after the first', async () => {
    expect(await release(4, () => {})).toEqual([0, 100, 200, 300]);
  });

  it('catches up after a slow piece instead of pushing every later one back', async () => {
    // The consumer holds piece 1 for 250 ms (a busy event loop): pieces 2 and 3 are already due
    // and go at once; piece 4 keeps its place on the timeline.
    const times = await release(5, (i) => {
      if (i === 1) vi.advanceTimersByTime(250);
    });
    expect(times).toEqual([0, 100, 350, 350, 400]);
  });

  it('starts its timeline at start(), not at the first wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const pacer = createPacer(100);
    const startedAt = performance.now();
    pacer.start();
    vi.advanceTimersByTime(150);
    const times: number[] = [];
    const run = (async () => {
      for (let i = 0; i < 3; i++) {
        await pacer.wait(i, new AbortController().signal);
        times.push(performance.now() - startedAt);
      }
    })();
    await vi.runAllTimersAsync();
    await run;
    expect(times).toEqual([150, 150, 200]);
  });

  it('does not wait at all with a zero interval, and stops waiting on abort', async () => {
    const pacer = createPacer(0);
    await pacer.wait(5, new AbortController().signal);
    const slow = createPacer(60_000);
    await slow.wait(0, new AbortController().signal);
    const controller = new AbortController();
    const waiting = slow.wait(1, controller.signal);
    controller.abort();
    await waiting; // resolves although the piece is a minute away
  });
});
