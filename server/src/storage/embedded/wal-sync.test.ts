import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWalSync, INLINE_SYNC_MAX_MS, INLINE_SYNC_PROBE_MS, type WalSync } from './wal-sync.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Turns the event loop until `done` (a pool sync first opens its file, on the thread pool). */
async function until(done: () => boolean) {
  for (let i = 0; !done(); i++) {
    if (i > 10_000) throw new Error('never happened');
    await turn();
  }
}

/** A WAL file, and a clock and two sync paths the test controls. */
function harness() {
  const dir = mkdtempSync(join(tmpdir(), 'alma-wal-sync-'));
  const path = join(dir, 'alma.db-wal');
  writeFileSync(path, 'frames');
  let clock = 0;
  let changes = 0;
  const calls: ('here' | 'pool')[] = [];
  /** How long the disk takes per sync, in the test's clock. */
  let diskMs = 0.5;
  let failHere: Error | null = null;
  const pending: (() => void)[] = [];
  const wal: WalSync = createWalSync(path, {
    changes: () => changes,
    now: () => clock,
    syncHere: () => {
      calls.push('here');
      if (failHere) throw failHere;
      clock += diskMs;
    },
    syncOnPool: (_handle: FileHandle) => {
      calls.push('pool');
      return new Promise<void>((resolve) =>
        pending.push(() => {
          clock += diskMs;
          resolve();
        }),
      );
    },
  });
  return {
    wal,
    calls,
    commit: () => void changes++,
    disk: (ms: number) => void (diskMs = ms),
    tick: (ms: number) => void (clock += ms),
    failHere: (error: Error | null) => void (failHere = error),
    /** Finishes `count` pool syncs, one after the other, each once it has been asked. */
    finishPool: async (count = 1) => {
      for (let i = 0; i < count; i++) {
        await until(() => pending.length > 0);
        pending.shift()?.();
      }
    },
    dispose: async () => {
      await wal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('WAL sync', () => {
  let h: ReturnType<typeof harness>;
  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    await h.dispose();
  });

  it('syncs on the loop while the disk is fast, once for all the commits before it', async () => {
    h.commit();
    h.commit();
    await h.wal.sync();
    // The other sends of the group ask too: nothing changed since, nothing to sync.
    await h.wal.sync();
    await h.wal.sync();
    expect(h.calls).toEqual(['here']);
    h.commit();
    await h.wal.sync();
    expect(h.calls).toEqual(['here', 'here']);
  });

  it('moves to the thread pool once syncs take long, and back once the disk is fast again', async () => {
    h.disk(INLINE_SYNC_MAX_MS * 5);
    h.commit();
    await h.wal.sync();
    expect(h.calls).toEqual(['here']);

    h.commit();
    let done = false;
    const first = h.wal.sync().then(() => (done = true));
    await until(() => h.calls.length === 2);
    await turn();
    expect(h.calls).toEqual(['here', 'pool']);
    expect(done).toBe(false); // acknowledged only once the disk has it

    // Commits made while it runs are not covered by it: they share one sync after it.
    h.commit();
    const second = h.wal.sync();
    h.commit();
    const third = h.wal.sync();
    h.disk(0);
    await h.finishPool(2);
    await Promise.all([first, second, third]);
    expect(h.calls).toEqual(['here', 'pool', 'pool']);

    // Pool syncs are not timed (they would count the loop's delays): a sync on the loop, once a
    // second, tells that the disk is fast again, and the syncs after it stay on the loop.
    h.tick(INLINE_SYNC_PROBE_MS);
    for (let i = 0; i < 3; i++) {
      h.commit();
      await h.wal.sync();
    }
    expect(h.calls).toEqual(['here', 'pool', 'pool', 'here', 'here', 'here']);
  });

  it('keeps syncing on the loop through one slow sync', async () => {
    for (const ms of [0.5, 0.5, 30, 0.5]) {
      h.disk(ms);
      h.commit();
      await h.wal.sync();
    }
    expect(h.calls).toEqual(['here', 'here', 'here', 'here']);
  });

  it('waits for a pool sync already running that covers the commit', async () => {
    h.disk(INLINE_SYNC_MAX_MS * 10);
    h.commit();
    await h.wal.sync();
    h.commit();
    const running = h.wal.sync();
    await until(() => h.calls.length === 2);
    expect(h.calls).toEqual(['here', 'pool']);
    let done = false;
    const same = h.wal.sync().then(() => (done = true));
    await turn();
    expect(done).toBe(false);
    await h.finishPool();
    await Promise.all([running, same]);
    expect(h.calls).toEqual(['here', 'pool']);
  });

  it('rejects a failed sync and syncs again on the next call, though nothing changed', async () => {
    h.commit();
    h.failHere(new Error('EIO: i/o error, fdatasync'));
    await expect(h.wal.sync()).rejects.toThrow('EIO');
    h.failHere(null);
    await h.wal.sync();
    expect(h.calls).toEqual(['here', 'here']);
  });
});
