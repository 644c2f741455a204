import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep } from './abortable-sleep.ts';

describe('abortableSleep', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves after its time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let done = false;
    const sleep = abortableSleep(50, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleep;
    expect(done).toBe(true);
  });

  it('an abort wakes every sleeper of the signal at once and clears their timers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const sleeps = [abortableSleep(1_000, controller.signal), abortableSleep(5_000, controller.signal)];
    expect(vi.getTimerCount()).toBe(2);
    controller.abort();
    await Promise.all(sleeps);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves at once on a signal already aborted, with no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    controller.abort();
    await abortableSleep(1_000, controller.signal);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a signal slept on a hundred times carries one abort listener, not one per sleep', async () => {
    // A paced engine sleeps once a word on its reply's signal (issue 14): a listener added and
    // removed per sleep cost more than the timer. Sleeps still running count too.
    const controller = new AbortController();
    for (let i = 0; i < 100; i++) await abortableSleep(0, controller.signal);
    const running = [abortableSleep(60_000, controller.signal), abortableSleep(60_000, controller.signal)];
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    await Promise.all(running);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('signals do not share sleepers: aborting one leaves the other asleep', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = new AbortController();
    const second = new AbortController();
    let secondDone = false;
    const a = abortableSleep(1_000, first.signal);
    void abortableSleep(1_000, second.signal).then(() => (secondDone = true));
    first.abort();
    await a;
    await vi.advanceTimersByTimeAsync(0);
    expect(secondDone).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(secondDone).toBe(true);
  });
});
