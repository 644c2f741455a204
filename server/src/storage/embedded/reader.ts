import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-thread.ts';

/**
 * The embedded store's reader thread (issue 14): a worker with a read-only connection of its own
 * to the same file answers the reads a send makes together (`Storage.readTogether`), so they no
 * longer take the event loop. A send into a session with a history reads its last 42 messages,
 * its state, the user, the month's usage and a possible duplicate: ~0.2–0.4 ms of the main
 * thread a send, which at 200 sends at once held the acks and first deltas of the last sends
 * behind all the others' reads. Through the thread a send costs the main thread a message out
 * and one back.
 *
 * Reads are routed only inside `together` (`route`); every other read, and every write, stays on
 * the main connection. The reads of one `together` are asked as one batch and answered from one
 * read transaction, so they still see one snapshot: the one current when the thread takes the
 * batch, which includes every commit made before `together` returned (SQLite's WAL: a new read
 * transaction sees every committed one, whichever connection made it).
 *
 * The thread starts on the first `together` (most stores never read together: tests, tools) and
 * reads are answered on the main thread until it is ready. Should it fail or exit, the reads it
 * was asked are read again on the main thread, and so is everything after: a send never waits
 * for a thread that is gone.
 */
export interface ReadThread {
  /** Runs `reads`; the routed reads it asks are answered by the thread, from one snapshot. */
  together<T>(reads: () => T, onMainThread: (reads: () => T) => T): T;
  /** `read`, answered by the thread when asked inside `together`. */
  route<A extends unknown[], R>(
    repo: string,
    method: string,
    read: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R>;
  /** Waits for the reads asked, then stops the thread. */
  close(): Promise<void>;
}

/**
 * The reads a send makes together (submit.service.ts's `readsFor`), by repository: the only ones
 * routed to the thread, and the only ones it answers. Each is a plain read of the main
 * connection's repository, answered by the same code over the thread's connection.
 */
export const ROUTED_READS = {
  users: ['findById', 'getPreferences'],
  sessions: ['find', 'state'],
  messages: ['findByClientMessageId', 'recentTurns'],
  usage: ['get'],
} as const;
export type RoutedRepository = keyof typeof ROUTED_READS;

export const isRoutedRead = (repo: string, method: string): repo is RoutedRepository =>
  Object.hasOwn(ROUTED_READS, repo) &&
  (ROUTED_READS[repo as RoutedRepository] as readonly string[]).includes(method);

/** A batch: each call is a repository's read by name, with its arguments. */
export interface ReadBatch {
  id: number;
  calls: ReadCall[];
}
export type ReadCall = [repo: string, method: string, args: unknown[]];
/** Each call's outcome, in order: its value, or the error it threw (its name and message). */
export type ReadOutcome = [ok: true, value: unknown] | [ok: false, error: { name: string; message: string }];
export type ReaderMessage = { kind: 'ready' } | { kind: 'answer'; id: number; outcomes: ReadOutcome[] };

const READER_WORKER = { source: new URL('./reader-worker.ts', import.meta.url), bundle: 'reader-worker.js' };

interface Asked {
  call: ReadCall;
  /** The same read on the main connection, should the thread be gone. */
  again: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createReadThread(
  file: string,
  entry: { source: URL; bundle: string } = READER_WORKER,
  /** Told once, should the thread die before the store closes (logged). */
  stopped?: (error: Error) => void,
): ReadThread {
  let worker: Worker | null = null;
  let state: 'idle' | 'starting' | 'ready' | 'gone' = 'idle';
  let asking: Asked[] | null = null;
  let nextId = 0;
  const waiting = new Map<number, Asked[]>();
  let drained: (() => void) | null = null;

  const settleAgain = (asked: Asked) => asked.again().then(asked.resolve, asked.reject);

  function gone(error: Error): void {
    if (state === 'gone') return;
    state = 'gone';
    stopped?.(error);
    const left = [...waiting.values()].flat();
    waiting.clear();
    for (const asked of left) void settleAgain(asked);
    drained?.();
  }

  function start(): void {
    state = 'starting';
    const started = startWorker(entry, { file });
    worker = started;
    // An idle reader keeps no process alive; its reads in flight are held by their callers.
    started.unref();
    started.on('message', (message: ReaderMessage) => {
      if (message.kind === 'ready') {
        if (state === 'starting') state = 'ready';
        return;
      }
      const asked = waiting.get(message.id);
      if (!asked) return;
      waiting.delete(message.id);
      message.outcomes.forEach((outcome, i) => {
        const one = asked[i];
        if (!one) return;
        if (outcome[0]) one.resolve(outcome[1]);
        else one.reject(Object.assign(new Error(outcome[1].message), { name: outcome[1].name }));
      });
      if (waiting.size === 0) drained?.();
    });
    started.on('error', gone);
    started.on('exit', (code) => gone(new Error(`the reader thread exited with code ${code}`)));
  }

  return {
    together(reads, onMainThread) {
      if (asking) return reads(); // joins the enclosing batch
      if (state === 'idle') start();
      if (state !== 'ready') return onMainThread(reads);
      const batch: Asked[] = (asking = []);
      try {
        return reads();
      } finally {
        asking = null;
        if (batch.length > 0) {
          const id = nextId++;
          waiting.set(id, batch);
          worker?.postMessage({ id, calls: batch.map((asked) => asked.call) } satisfies ReadBatch);
        }
      }
    },
    route(repo, method, read) {
      return (...args) => {
        const batch = asking;
        if (!batch) return read(...args);
        return new Promise((resolve, reject) => {
          batch.push({
            call: [repo, method, args],
            again: () => read(...args),
            resolve: resolve as (value: unknown) => void,
            reject,
          });
        });
      };
    },
    async close() {
      if (waiting.size > 0 && state !== 'gone') await new Promise<void>((resolve) => (drained = resolve));
      const stopping = worker;
      worker = null;
      state = 'gone';
      await stopping?.terminate();
    },
  };
}
