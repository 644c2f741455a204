import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../bench/support/server-process.ts';

/**
 * The speech bench splits a server's CPU by thread from Linux's /proc: the main thread, the
 * threads nicer than it (Alma's speech workers) and the rest (V8's and libuv's threads).
 */
describe.runIf(existsSync('/proc/thread-self/schedstat'))('bench server process: CPU by thread', () => {
  it('counts the threads nicer than the main thread, and only those', async () => {
    const child = await startServerProcess(new URL('./nicer-thread-child.ts', import.meta.url), {
      label: 'nicer-thread-child',
    });
    try {
      const nicerMs = child.nicerThreadsUs() / 1000;
      // The nice worker spun until its own schedstat read 300 ms; the other one, 600 ms, is not counted.
      expect(nicerMs).toBeGreaterThanOrEqual(300);
      expect(nicerMs).toBeLessThan(600);
      expect(child.mainThreadUs()).toBeGreaterThan(0);
    } finally {
      await child.close();
    }
  }, 60_000);
});
