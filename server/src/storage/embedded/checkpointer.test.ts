import Database from 'libsql';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_FRAMES, CHECKPOINT_NICE, createCheckpointer } from './checkpointer.ts';
import { testUser } from '../../test-support/embedded-store.ts';
import { openEmbeddedStorage } from './index.ts';
import { watchWalChanges, type WalChanges } from './wal-changes.ts';

/**
 * The checkpoint thread (checkpointer.ts, issue 14): once the WAL grows, its checkpoints are run
 * by a worker with a connection of its own, and the main connection's are switched off; should the
 * thread die, the main connection checkpoints again.
 */
let directory: string;
let files = 0;
const nextFile = () => join(directory, `checkpoints-${++files}.db`);
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'alma-checkpoints-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const row = 'x'.repeat(2000);

/** A WAL-mode connection standing in for the store's main one, and the checkpointer it reports to. */
function mainConnection(file: string, entry?: { source: URL; bundle: string }) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const wal = watchWalChanges(file) as WalChanges;
  const switched: boolean[] = [];
  const checkpoints: { log: number; checkpointed: number }[] = [];
  const stopped: string[] = [];
  const checkpointer = createCheckpointer(
    file,
    {
      backlog: wal.backlog,
      autocheckpoint: (on) => {
        switched.push(on);
        db.pragma(`wal_autocheckpoint = ${on ? CHECKPOINT_FRAMES : 0}`);
      },
      onCheckpoint: (outcome) => checkpoints.push(outcome),
      stopped: (error) => stopped.push(error.message),
    },
    entry,
  );
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  let rows = 0;
  /** One commit of 20 rows (~20 pages), then the checkpointer is told, then the event loop turns. */
  const commit = async () => {
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 20; i++) insert.run(row);
    db.exec('COMMIT');
    rows += 20;
    checkpointer.committed();
    await turn();
  };
  const autocheckpoint = () =>
    (db.prepare('PRAGMA wal_autocheckpoint').get({}) as { wal_autocheckpoint: number }).wal_autocheckpoint;
  const count = () => db.prepare('SELECT count(*) AS n FROM t').get({}) as { n: number };
  return {
    db,
    wal,
    switched,
    checkpoints,
    stopped,
    checkpointer,
    commit,
    autocheckpoint,
    count,
    rows: () => rows,
  };
}

/** This process's threads (Linux tasks) running `nice` below its main thread. */
function threadsNicer(nice: number): number {
  const niceOf = (task: string) => {
    const stat = readFileSync(`/proc/${process.pid}/task/${task}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: state is the 3rd, nice the 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  const main = niceOf(String(process.pid));
  return readdirSync(`/proc/${process.pid}/task`).filter((t) => niceOf(t) === Math.min(19, main + nice))
    .length;
}

/** Commits until `done`, at most 20 s. */
async function commitUntil(main: ReturnType<typeof mainConnection>, done: () => boolean): Promise<void> {
  const until = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > until) throw new Error('gave up waiting');
    await main.commit();
  }
}

describe('the embedded store’s checkpoint thread (issue 14)', () => {
  it('runs the checkpoints on its own connection once the WAL grows; the main connection runs none', async () => {
    const nicer = threadsNicer(CHECKPOINT_NICE);
    const main = mainConnection(nextFile());
    try {
      await commitUntil(main, () => main.checkpoints.length >= 3);
      // On a thread that yields the cores to the event loop and to speech.
      if (process.platform === 'linux') expect(threadsNicer(CHECKPOINT_NICE) - nicer).toBe(1);
      // The main connection gave its checkpoints up once, when the thread was ready.
      expect(main.switched).toStrictEqual([false]);
      expect(main.autocheckpoint()).toBe(0);
      // Nothing else read the file: each checkpoint copied the whole WAL it found, and the
      // next commit started the WAL again.
      for (const { log, checkpointed } of main.checkpoints) {
        expect(log).toBeGreaterThanOrEqual(CHECKPOINT_FRAMES);
        expect(checkpointed).toBe(log);
      }
      await main.commit();
      expect(main.wal.backlog()).toBeLessThan(CHECKPOINT_FRAMES);
      expect(main.count().n).toBe(main.rows());
      // A thread stopped by closing is not reported as stopped.
      await main.checkpointer.close();
      expect(main.stopped).toStrictEqual([]);
    } finally {
      await main.checkpointer.close();
      main.db.close();
    }
  });

  it('does not start for a store that writes little', async () => {
    const main = mainConnection(nextFile());
    try {
      for (let i = 0; i < 5; i++) await main.commit();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(main.switched).toStrictEqual([]);
      expect(main.autocheckpoint()).toBe(CHECKPOINT_FRAMES);
    } finally {
      await main.checkpointer.close();
      main.db.close();
    }
  });

  it.each([
    ['dies', './checkpoint-exits.fixture.ts', 'the checkpoint thread exited with code 3'],
    ['fails a checkpoint', './checkpoint-fails.fixture.ts', 'a checkpoint failed: disk I/O error'],
  ])(
    'gives the checkpoints back to the main connection and says why when its thread %s',
    async (_, fixture, why) => {
      const main = mainConnection(nextFile(), { source: new URL(fixture, import.meta.url), bundle: 'none' });
      try {
        await commitUntil(main, () => main.switched.length >= 2);
        expect(main.switched).toStrictEqual([false, true]);
        expect(main.autocheckpoint()).toBe(CHECKPOINT_FRAMES);
        // Said once, for the log (server.ts), however the thread ended after it.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(main.stopped).toStrictEqual([why]);
        // The main connection's own checkpoints keep the WAL bounded from then on.
        const from = main.rows();
        await commitUntil(main, () => main.rows() - from >= 2 * CHECKPOINT_FRAMES);
        expect(main.wal.backlog()).toBeLessThan(CHECKPOINT_FRAMES);
        expect(main.checkpoints).toStrictEqual([]);
      } finally {
        await main.checkpointer.close();
        main.db.close();
      }
    },
  );

  it.each([
    [true, 1],
    [false, 0],
  ])(
    'checkpoints a store’s WAL as its messages are written, and closes with the store (checkpointThread %s)',
    async (checkpointThread, threads) => {
      const file = nextFile();
      const nicer = threadsNicer(CHECKPOINT_NICE);
      const stopped: string[] = [];
      const storage = openEmbeddedStorage({
        file,
        readThread: false,
        checkpointThread,
        onThreadStopped: (thread, error) => stopped.push(`${thread}: ${error.message}`),
      });
      const now = '2026-12-01T08:00:00.000Z';
      await storage.users.create(testUser({ createdAt: now }));
      await storage.sessions.create({
        sessionId: 'session-1',
        userId: 'user-1',
        title: 'Charla',
        personality: 'default',
        createdAt: now,
        updatedAt: now,
      });
      const wal = watchWalChanges(file) as WalChanges;
      let written = 0;
      let last = 0;
      const until = Date.now() + 20_000;
      // Messages of ~2 KB in groups of 20 until the WAL has been checkpointed twice (its backlog
      // fell) since the store's thread (if it has one) started.
      const started = () => threadsNicer(CHECKPOINT_NICE) - nicer >= threads;
      for (let checkpoints = 0; checkpoints < 2;) {
        if (Date.now() > until) throw new Error('no checkpoint');
        await Promise.all(
          Array.from({ length: 20 }, () =>
            storage.messages.insert({
              _id: `m-${String(++written).padStart(6, '0')}`,
              sessionId: 'session-1',
              userId: 'user-1',
              role: 'user',
              content: row,
              createdAt: new Date(Date.parse(now) + written).toISOString(),
              clientMessageId: null,
              replyTo: null,
              emotion: null,
              emotionAnalysis: null,
              language: 'es',
              userLanguage: 'es',
              personality: null,
              audioUrl: null,
              isComplete: true,
            }),
          ),
        );
        await turn();
        const backlog = wal.backlog();
        if (backlog < last && started()) checkpoints++;
        last = backlog;
      }
      wal.close();
      // By the store's thread, or (without one) by its main connection.
      expect(threadsNicer(CHECKPOINT_NICE) - nicer).toBe(threads);
      await storage.close();
      // Closing the store stopped its thread.
      while (threadsNicer(CHECKPOINT_NICE) > nicer && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(threadsNicer(CHECKPOINT_NICE)).toBe(nicer);
      // …and is not taken for a thread that stopped.
      expect(stopped).toStrictEqual([]);
      const reopened = openEmbeddedStorage({ file, readThread: false });
      try {
        expect(await reopened.messages.countByUser('user-1')).toBe(written);
      } finally {
        await reopened.close();
      }
    },
  );
});
