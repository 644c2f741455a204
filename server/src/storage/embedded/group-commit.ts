import type Database from 'libsql';
import type { WriteOptions } from '../types.ts';

/**
 * Group commit for the embedded store (issue 14). With `synchronous = FULL` every commit fsyncs
 * the WAL, and the driver is synchronous: a write per transaction blocked the event loop for an
 * fsync each (measured: 3,000 writes from 200 users at once held the loop for 2.8 s straight,
 * 94 % of it in the fsync). Writes issued in one turn of the event loop now share one
 * transaction — one fsync — and each caller's promise resolves only once that transaction is
 * committed, so an acknowledged write still survives kill -9 (tests/faults/kill9.test.ts).
 *
 * Each write runs in a savepoint of its own: one that throws is rolled back and rejects alone;
 * the others commit. Should the group's transaction itself fail (disk full, I/O error), every
 * write of the group rejects and nothing of it is acknowledged.
 *
 * The fsync is separate from the commit when a `sync` is given (index.ts: the connection at
 * `synchronous = NORMAL`, whose COMMIT writes the WAL without syncing it, and `sync` syncs the WAL
 * file, wal-sync.ts: on the loop while the disk is fast, else on libuv's thread pool): a commit
 * never holds the loop for a slow disk — measured under load with FULL, 10–100 ms per commit,
 * each delaying every reply's text. A group is acknowledged only once
 * its sync has finished; a sync that fails rejects the group's writes (committed, but not known
 * to be durable).
 *
 * A write given `{ synced: false }` resolves once its group is committed — visible to every read —
 * without waiting for the sync; `synced()` then resolves once everything committed so far is on
 * disk. A sequence of dependent writes that only needs to be durable as a whole (a chat message:
 * its count, its session, the message itself) waits for the disk once instead of once per write.
 */
export interface GroupCommit {
  /** Runs `work` in the next group's transaction; resolves with its result once that is durable. */
  write: <T>(work: () => T, options?: WriteOptions) => Promise<T>;
  /** Resolves once every write committed before the call is durable. */
  synced: () => Promise<void>;
  /**
   * `fn` as one atomic unit: a transaction of its own, or a savepoint inside the group's (libsql's
   * `db.transaction` cannot nest). Use it for a read-modify-write inside `write`, or for a
   * consistent read outside. Called inside another unit, it joins that one: should it throw, the
   * enclosing unit is undone with it, so nothing may catch an error inside a unit and go on
   * (issue 14: a send's one write nested five savepoints, a fifth of its commit's time).
   */
  atomic: <A extends unknown[], T>(fn: (...args: A) => T) => (...args: A) => T;
  /** Commits the writes waiting for the next turn now (before the connection closes). */
  flush: () => void;
}

interface Job {
  work: () => unknown;
  synced: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createGroupCommit(
  db: Database.Database,
  options: {
    sync?: () => Promise<void>;
    /** After each group's commit (checkpointer.ts: is a checkpoint due?). */
    committed?: () => void;
  } = {},
): GroupCommit {
  let queue: Job[] = [];
  /** Whether a unit (`atomic`) is running: one inside it joins it. */
  let inUnit = false;

  function atomic<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A) => {
      if (inUnit) return fn(...args);
      // Outside a transaction a savepoint begins one (deferred), and its release commits it.
      inUnit = true;
      db.exec('SAVEPOINT atomic');
      try {
        const result = fn(...args);
        db.exec('RELEASE atomic');
        return result;
      } catch (error) {
        // After some errors (SQLITE_FULL, I/O) SQLite has already rolled everything back.
        if (db.inTransaction) {
          db.exec('ROLLBACK TO atomic');
          db.exec('RELEASE atomic');
        }
        throw error;
      } finally {
        inUnit = false;
      }
    };
  }

  function flush(): void {
    if (queue.length === 0) return;
    const group = queue;
    queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let lost: unknown = null;
    try {
      db.exec('BEGIN IMMEDIATE');
      for (const job of group) {
        try {
          outcomes.push({ ok: true, value: atomic(job.work)() });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
        if (!db.inTransaction)
          throw new Error('the group transaction was rolled back', { cause: outcomes.at(-1) });
      }
      db.exec('COMMIT');
    } catch (error) {
      lost = error;
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // The connection is unusable: the writes are rejected below all the same.
      }
    }
    if (lost === null) options.committed?.();
    const settle = (unsynced: unknown, synced: boolean) =>
      group.forEach((job, i) => {
        if (job.synced !== synced) return;
        const outcome = outcomes[i];
        if (lost !== null) job.reject(outcome && !outcome.ok ? outcome.error : lost);
        else if (outcome?.ok) {
          if (unsynced === null) job.resolve(outcome.value);
          else job.reject(unsynced);
        } else job.reject(outcome?.error);
      });
    // Writes that asked only for the commit are settled now; the others once the WAL is synced.
    settle(null, false);
    const syncedOk = outcomes.some((o, i) => o.ok && group[i]?.synced);
    if (lost !== null || !options.sync || !syncedOk) settle(null, true);
    else
      options.sync().then(
        () => settle(null, true),
        (error: unknown) => settle(error, true),
      );
  }

  return {
    write<T>(work: () => T, writeOptions: WriteOptions = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        // Everything written until the event loop turns goes into the same transaction.
        if (queue.length === 0) setImmediate(flush);
        const synced = writeOptions.synced ?? true;
        queue.push({ work, synced, resolve: resolve as (value: unknown) => void, reject });
      });
    },
    // The sync syncs the whole WAL, every commit before it included (wal-sync.ts starts a new one
    // after any sync already running, so a commit made during it is covered too).
    synced: () => options.sync?.() ?? Promise.resolve(),
    atomic,
    flush,
  };
}
