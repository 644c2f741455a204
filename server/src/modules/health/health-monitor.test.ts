import { describe, expect, it } from 'vitest';
import { createHealthMonitor, type HealthSnapshot } from './health-monitor.ts';

describe('health monitor (SPEC.md H-1)', () => {
  it('H-1: degraded while any check fails, throws or does not answer in time; online when all pass', async () => {
    let db = true;
    const monitor = createHealthMonitor({
      checks: [{ name: 'database', run: async () => db }],
      intervalMs: 60_000,
      timeoutMs: 50,
    });
    const changes: HealthSnapshot[] = [];
    monitor.onChange((s) => changes.push(s));
    expect((await monitor.check()).status).toBe('online');
    expect(changes).toEqual([]); // no change, no call

    db = false;
    expect(await monitor.check()).toEqual({ status: 'degraded', checks: [{ name: 'database', ok: false }] });
    db = true;
    monitor.add({
      name: 'redis',
      run: async () => {
        throw new Error('ECONNREFUSED');
      },
    });
    expect(await monitor.check()).toEqual({
      status: 'degraded',
      checks: [
        { name: 'database', ok: true },
        { name: 'redis', ok: false, detail: 'ECONNREFUSED' },
      ],
    });
    monitor.add({ name: 'queues', run: () => new Promise<boolean>(() => {}) });
    const slow = await monitor.check();
    expect(slow.checks.at(-1)).toEqual({ name: 'queues', ok: false, detail: 'no answer' });
    // Two changes only (online → degraded, and it stayed degraded).
    expect(changes.map((c) => c.status)).toEqual(['degraded']);
  });

  it('H-1: concurrent callers share one round of checks', async () => {
    let runs = 0;
    const monitor = createHealthMonitor({
      checks: [{ name: 'database', run: async () => (runs++, true) }],
      intervalMs: 60_000,
    });
    await Promise.all([monitor.check(), monitor.check(), monitor.check()]);
    expect(runs).toBe(1);
  });

  it('H-2: checks in the background until stopped, telling listeners of each change', async () => {
    let ok = true;
    const monitor = createHealthMonitor({
      checks: [{ name: 'database', run: async () => ok }],
      intervalMs: 10,
    });
    const seen: string[] = [];
    monitor.onChange((s) => seen.push(s.status));
    monitor.start();
    ok = false;
    await until(() => seen.length === 1);
    ok = true;
    await until(() => seen.length === 2);
    monitor.stop();
    ok = false;
    await new Promise((r) => setTimeout(r, 60));
    expect(seen).toEqual(['degraded', 'online']);
    expect(monitor.current().status).toBe('online');
  });
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}
