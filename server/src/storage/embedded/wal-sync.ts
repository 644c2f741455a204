import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * The longest the event loop waits for a sync (the median of its last SYNCS_TIMED on the loop)
 * before it syncs on libuv's thread pool instead: the disk is slow, the loop had better go on.
 */
export const INLINE_SYNC_MAX_MS = 2;
/** Syncs on the loop whose median decides; one slow sync among them does not. */
const SYNCS_TIMED = 5;
/** While syncing on the pool, one sync this often is made on the loop: is the disk fast again? */
export const INLINE_SYNC_PROBE_MS = 1000;

export interface WalSync {
  /** Resolves once every commit made before the call is on disk. */
  sync: () => Promise<void>;
  close: () => Promise<void>;
}

export interface WalSyncOptions {
  /** The connection's changes so far (SQLite's `total_changes()`): a sync with none new is skipped. */
  changes: () => number;
  /** Tests: the two ways to sync, and the clock they are timed with. */
  syncHere?: (fd: number) => void;
  syncOnPool?: (handle: FileHandle) => Promise<void>;
  now?: () => number;
}

/**
 * fdatasync of the WAL file, so that a commit acknowledged survives kill -9 and power loss
 * (group-commit.ts). Two ways, chosen by how fast the disk has been:
 *
 * - **On the event loop** while syncs take under INLINE_SYNC_MAX_MS (0.7 ms p50 on this disk):
 *   the commit is on disk when the sync returns, and what waited for it goes on in the same turn.
 *   On the thread pool the answer came back only once the loop next polled: at 200 sends at once
 *   that took 6–41 ms (p50 per round, against 0.1–0.6 ms here), every message's ack and its
 *   reply's first delta waiting for it (issue 14).
 * - **On libuv's thread pool** once they take longer (a slow or busy disk): the loop goes on
 *   working meanwhile. Commits that land while a sync runs share the next one, which starts after
 *   it. A pool sync's time would count its wait for a busy loop too, so only syncs on the loop
 *   are timed: one every INLINE_SYNC_PROBE_MS tells when the disk is fast again.
 *
 * Only the connection's own changes need syncing: a sync asked when nothing changed since the
 * last sync began (the other sends of a group, which each ask) returns at once.
 */
export function createWalSync(path: string, options: WalSyncOptions): WalSync {
  const now = options.now ?? (() => performance.now());
  const syncHere = options.syncHere ?? fdatasyncSync;
  const syncOnPool = options.syncOnPool ?? ((handle: FileHandle) => handle.datasync());
  /** `changes()` when the last sync began: everything up to it is on disk once that sync ends. */
  let covered = Number.NaN;
  /** The last syncs on the loop, ms, newest last; and when the last began. */
  const timings: number[] = [];
  let lastHereAt = Number.NEGATIVE_INFINITY;
  let fd: number | null = null;
  let handle: Promise<FileHandle> | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  /** The (lower) median of the last syncs on the loop is short enough; with none timed, yes. */
  const diskIsFast = () =>
    (timings.toSorted((a, b) => a - b)[Math.floor((timings.length - 1) / 2)] ?? 0) <= INLINE_SYNC_MAX_MS;

  function here(): Promise<void> {
    const startedAt = now();
    lastHereAt = startedAt;
    try {
      // The WAL exists from the first commit on and stays while the connection is open.
      fd ??= openSync(path, 'r');
      syncHere(fd);
    } catch (error) {
      // The next sync opens the file again.
      if (fd !== null) closeQuietly(fd);
      fd = null;
      covered = Number.NaN;
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    timings.push(now() - startedAt);
    if (timings.length > SYNCS_TIMED) timings.shift();
    return Promise.resolve();
  }

  async function onPool(): Promise<void> {
    const opening = (handle ??= open(path, 'r'));
    try {
      await syncOnPool(await opening);
    } catch (error) {
      if (handle === opening) handle = null;
      covered = Number.NaN;
      void opening.then((h) => h.close()).catch(() => undefined);
      throw error;
    }
  }

  function sync(): Promise<void> {
    const changes = options.changes();
    if (changes === covered) return running ?? Promise.resolve();
    if (running) {
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = null;
          return sync();
        });
      return next;
    }
    covered = changes;
    if (diskIsFast() || now() - lastHereAt >= INLINE_SYNC_PROBE_MS) return here();
    running = onPool().finally(() => (running = null));
    return running;
  }

  return {
    sync,
    async close() {
      await Promise.allSettled([running, next]);
      if (fd !== null) closeQuietly(fd);
      fd = null;
      await (await handle?.catch(() => null))?.close();
      handle = null;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already, or the disk failed: nothing more to do with it.
  }
}
