import Database from 'libsql';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../types.ts';
import { openEmbeddedStorage } from './index.ts';
import { answeredLater, readerThreadReady, testUser } from '../../test-support/embedded-store.ts';
import { createReadThread } from './reader.ts';

/**
 * The reader thread (reader.ts, issue 14): a send's reads answered by a worker with its own
 * read-only connection. A read answered on the main thread is settled before the next microtask
 * turn (the driver is synchronous); one asked of the thread is still pending then.
 */
let directory: string;
let files = 0;
const nextFile = () => join(directory, `reader-${++files}.db`);
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'alma-reader-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const now = '2026-12-01T05:00:00.000Z';

async function seeded(storage: Storage) {
  const user = await storage.users.create(testUser({ createdAt: now }));
  await storage.sessions.create({
    sessionId: 'session-1',
    userId: user.id,
    title: 'Charla',
    personality: 'default',
    createdAt: now,
    updatedAt: now,
  });
  for (let i = 0; i < 6; i++) {
    await storage.messages.insert({
      _id: `m-${i}`,
      sessionId: 'session-1',
      userId: user.id,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `mensaje ${i}`,
      createdAt: new Date(Date.parse(now) + i * 1000).toISOString(),
      clientMessageId: i % 2 === 0 ? `c-${i}` : null,
      replyTo: i % 2 === 0 ? null : `m-${i - 1}`,
      emotion: null,
      emotionAnalysis: null,
      language: 'es',
      userLanguage: 'es',
      personality: null,
      audioUrl: null,
      isComplete: true,
    });
  }
  return user.id;
}

const sendReads = (storage: Storage, userId: string) => ({
  user: storage.users.findById(userId),
  preferences: storage.users.getPreferences(userId),
  session: storage.sessions.find(userId, 'session-1'),
  state: storage.sessions.state(userId, 'session-1'),
  duplicate: storage.messages.findByClientMessageId(userId, 'c-2'),
  none: storage.messages.findByClientMessageId(userId, 'c-none'),
  recent: storage.messages.recentTurns(userId, 'session-1', 42),
  usage: storage.usage.get(userId, '2026-12'),
});

const settledAll = async (reads: Record<string, Promise<unknown>>): Promise<Record<string, unknown>> =>
  Object.fromEntries(
    await Promise.all(
      Object.entries(reads).map(async ([key, read]): Promise<[string, unknown]> => [key, await read]),
    ),
  );

/** A seeded store on a new file whose thread answers, and another connection writing to the file. */
async function withAnotherConnection(
  test: (storage: Storage, other: Database.Database, userId: string) => Promise<void>,
): Promise<void> {
  const file = nextFile();
  const storage = openEmbeddedStorage({ file });
  const other = new Database(file);
  try {
    const userId = await seeded(storage);
    await readerThreadReady(storage, userId);
    await test(storage, other, userId);
  } finally {
    other.close();
    await storage.close();
  }
}

describe('the embedded store’s reader thread (issue 14)', () => {
  it('answers a send’s reads together off the event loop, with what the main connection reads', async () => {
    const storage = openEmbeddedStorage({ file: nextFile() });
    try {
      const userId = await seeded(storage);
      await readerThreadReady(storage, userId);
      const reads = storage.readTogether(() => sendReads(storage, userId));
      expect(await answeredLater(reads.recent)).toBe(true);
      const fromThread = await settledAll(reads);
      const onMain = await settledAll(sendReads(storage, userId));
      expect(fromThread).toStrictEqual(onMain);
      expect((fromThread['recent'] as { content: string }[]).map((m) => m.content)).toStrictEqual(
        [0, 1, 2, 3, 4, 5].map((i) => `mensaje ${i}`),
      );
      // Outside `together`, reads stay on the main thread.
      expect(await answeredLater(storage.users.findById(userId))).toBe(false);
    } finally {
      await storage.close();
    }
  });

  it('answers every read of a batch from one snapshot that includes what was committed before it', async () => {
    await withAnotherConnection(async (storage, other, userId) => {
      const rename = other.prepare('UPDATE users SET name = ? WHERE id = ?');
      const reads = storage.readTogether(() => {
        const first = storage.users.findById(userId);
        rename.run('Después', userId);
        return { first, second: storage.users.findById(userId) };
      });
      expect((await reads.first)?.name).toBe('Después');
      expect((await reads.second)?.name).toBe('Después');
    });
  });

  it('rejects a read that fails alone, with its error’s name and message; the others are answered', async () => {
    await withAnotherConnection(async (storage, other, userId) => {
      other.prepare("UPDATE users SET plan = 'platino' WHERE id = ?").run(userId);
      const reads = storage.readTogether(() => sendReads(storage, userId));
      const failure: unknown = await reads.user.catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).name).toBe('StoredRecordError');
      expect((failure as Error).message).toContain('a row of users (user-1) does not fit its record');
      expect((await reads.recent).length).toBe(6);
    });
  });

  it('waits for the reads it was asked before the store closes', async () => {
    const stopped: string[] = [];
    const storage = openEmbeddedStorage({
      file: nextFile(),
      onThreadStopped: (thread, error) => stopped.push(`${thread}: ${error.message}`),
    });
    const userId = await seeded(storage);
    await readerThreadReady(storage, userId);
    const reads = storage.readTogether(() => sendReads(storage, userId));
    await storage.close();
    expect((await reads.recent).length).toBe(6);
    expect((await reads.user)?.name).toBe('Ana');
    // A thread stopped by closing the store is not reported as stopped.
    expect(stopped).toStrictEqual([]);
  });

  it('reads again on the main thread what a thread that died was asked, and everything after', async () => {
    const file = nextFile();
    const storage = openEmbeddedStorage({ file, readThread: false });
    try {
      const userId = await seeded(storage);
      const stopped: string[] = [];
      const thread = createReadThread(
        file,
        { source: new URL('./reader-exits.fixture.ts', import.meta.url), bundle: 'unused.js' },
        (error) => stopped.push(error.message),
      );
      const findById = thread.route('users', 'findById', storage.users.findById);
      const onMain = <T>(reads: () => T) => reads();
      const until = Date.now() + 20_000;
      let read = thread.together(() => findById(userId), onMain);
      while (!(await answeredLater(read)) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        read = thread.together(() => findById(userId), onMain);
      }
      // The thread took the batch and died with it: the read is answered all the same.
      expect((await read)?.name).toBe('Ana');
      const after = thread.together(() => findById(userId), onMain);
      expect(await answeredLater(after)).toBe(false);
      expect((await after)?.name).toBe('Ana');
      // Said once, for the log (server.ts).
      expect(stopped).toStrictEqual(['the reader thread exited with code 3']);
      await thread.close();
    } finally {
      await storage.close();
    }
  });
});
