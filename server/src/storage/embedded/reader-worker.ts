import Database from 'libsql';
import { parentPort, workerData } from 'node:worker_threads';
import { createGroupCommit } from './group-commit.ts';
import { createMessageRepository, messageRows } from './messages.ts';
import { isRoutedRead, type ReadBatch, type ReaderMessage, type ReadOutcome } from './reader.ts';
import { createSessionRepository, sessionRows } from './sessions.ts';
import { createUsageRepository, usageRows } from './usage.ts';
import { createUserRepository } from './users.ts';

/**
 * The reader thread (reader.ts): the embedded repositories over a read-only connection to the
 * store's file, answering each batch from one read transaction. The file is the main thread's,
 * already migrated; nothing here writes (a write would fail on this connection).
 */
const { file } = workerData as { file: string };
const port = parentPort;
if (!port) throw new Error('reader-worker.ts runs as a worker thread');

const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');
const unused = createGroupCommit(db);
type Reads = Record<string, (...args: unknown[]) => Promise<unknown>>;
const repositories: Record<string, Reads> = {
  users: createUserRepository(db, unused) as unknown as Reads,
  sessions: createSessionRepository(db, sessionRows(db, unused.atomic), unused, null) as unknown as Reads,
  messages: createMessageRepository(db, messageRows(db, unused.atomic), unused) as unknown as Reads,
  usage: createUsageRepository(usageRows(db, unused.atomic), unused) as unknown as Reads,
};

const failed = (error: unknown): ReadOutcome => [
  false,
  error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) },
];

function call(repo: string, method: string, args: unknown[]): Promise<unknown> {
  const read = isRoutedRead(repo, method) ? repositories[repo]?.[method] : undefined;
  if (!read) return Promise.reject(new Error(`the reader thread has no read ${repo}.${method}`));
  try {
    return read(...args);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

port.on('message', (batch: ReadBatch) => {
  // The embedded repositories read synchronously: every statement of the batch runs here,
  // inside the one transaction; their promises are already settled when it commits.
  db.exec('BEGIN');
  let answers: Promise<unknown>[];
  try {
    answers = batch.calls.map(([repo, method, args]) => call(repo, method, args));
  } finally {
    db.exec('COMMIT');
  }
  void Promise.allSettled(answers).then((settled) => {
    const outcomes = settled.map((s): ReadOutcome =>
      s.status === 'fulfilled' ? [true, s.value] : failed(s.reason),
    );
    port.postMessage({ kind: 'answer', id: batch.id, outcomes } satisfies ReaderMessage);
  });
});

port.postMessage({ kind: 'ready' } satisfies ReaderMessage);
