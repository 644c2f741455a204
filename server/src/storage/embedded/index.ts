import Database from 'libsql';
import type { Storage } from '../types.ts';
import { CHECKPOINT_FRAMES, createCheckpointer } from './checkpointer.ts';
import { createCustomAvatarRepository } from './custom-avatars.ts';
import { createCustomVoiceRepository } from './custom-voices.ts';
import { createGroupCommit } from './group-commit.ts';
import { createIdentityRepository } from './identities.ts';
import { createKnownDeviceRepository } from './known-devices.ts';
import { migrate } from './migrations.ts';
import { createMessageRepository, messageRows } from './messages.ts';
import { createOneTimeTokenRepository } from './one-time-tokens.ts';
import { createRefreshTokenRepository } from './refresh-tokens.ts';
import { createSendRepository } from './sends.ts';
import { createSessionRepository, sessionRows } from './sessions.ts';
import { prepare } from './sql.ts';
import { createReadThread, ROUTED_READS, type RoutedRepository } from './reader.ts';
import { watchWalChanges } from './wal-changes.ts';
import { createWalSync, type WalSyncOptions } from './wal-sync.ts';
import { createUsageRepository, usageRows } from './usage.ts';
import { createUserRepository } from './users.ts';

/** A store thread that stopped before its store closed, and why. */
export type ThreadStopped = (thread: 'reader' | 'checkpoint', error: Error) => void;

type Routable = (...args: unknown[]) => Promise<unknown>;

/** How long a write waits for another process's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The default store: SQLite through libsql in one file (`:memory:` for throwaway use). The driver
 * is synchronous; the repositories are async only to match the interface the MongoDB store needs.
 * All repositories share one connection: a synchronous call runs to its end, so one repository's
 * transaction never interleaves with another's statements.
 */
export function openEmbeddedStorage({
  file,
  readThread,
  checkpointThread,
  onThreadStopped,
  walSync,
}: {
  file: string;
  /** Whether a send's reads are answered by a reader thread (reader.ts); default: for a file. */
  readThread?: boolean;
  /** Whether a thread runs the WAL's checkpoints (checkpointer.ts); default: for a file. */
  checkpointThread?: boolean;
  /**
   * Told should the reader or checkpoint thread stop before the store closes: its work goes on,
   * on the main thread (the server logs it).
   */
  onThreadStopped?: ThreadStopped;
  /** Tests: how the WAL is synced and timed (wal-sync.ts). */
  walSync?: Omit<WalSyncOptions, 'changes'>;
}): Storage {
  const db = new Database(file);
  try {
    // WAL lets readers run beside the writer. A file's commits write the WAL without syncing it
    // (NORMAL); its group is acknowledged once wal-sync.ts has synced the WAL — on the loop while
    // the disk is fast, else on libuv's thread pool — so an acknowledged write survives kill -9 and
    // power loss as with FULL, one sync a group (group-commit.ts). In memory there is nothing to sync.
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${file === ':memory:' ? 'FULL' : 'NORMAL'}`);
    // Per connection in SQLite and off by default; the schema's ON DELETE CASCADE relies on it.
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }

  // Statements are prepared after migrating: they need the tables to exist.
  const select1 = prepare(db, 'SELECT 1 AS ok');
  const walChanges = watchWalChanges(file);
  // Checkpoints run on a thread of their own once the WAL grows (checkpointer.ts).
  const checkpointer =
    walChanges && checkpointThread !== false
      ? createCheckpointer(file, {
          backlog: () => walChanges.backlog(),
          autocheckpoint: (on) => db.pragma(`wal_autocheckpoint = ${on ? CHECKPOINT_FRAMES : 0}`),
          stopped: (error) => onThreadStopped?.('checkpoint', error),
        })
      : null;
  // Writes of one event-loop turn share a transaction and its fsync (group-commit.ts).
  const totalChanges = prepare(db, 'SELECT total_changes() AS n');
  const wal =
    file === ':memory:'
      ? null
      : createWalSync(`${file}-wal`, {
          ...walSync,
          changes: () => (totalChanges.get({}) as { n: number }).n,
        });
  const writes = createGroupCommit(db, {
    ...(wal ? { sync: wal.sync } : {}),
    ...(checkpointer ? { committed: () => checkpointer.committed() } : {}),
  });
  // The statements a send's one write shares with the repositories (sends.ts).
  const rows = {
    usage: usageRows(db, writes.atomic),
    sessions: sessionRows(db, writes.atomic),
    messages: messageRows(db, writes.atomic),
  };
  const users = createUserRepository(db, writes);
  const sessions = createSessionRepository(db, rows.sessions, writes, walChanges);
  const messages = createMessageRepository(db, rows.messages, writes);
  const usage = createUsageRepository(rows.usage, writes);
  // A send's reads, answered off the event loop (reader.ts); a database in memory has no file
  // another connection could open.
  const reader =
    (readThread ?? file !== ':memory:')
      ? createReadThread(file, undefined, (error) => onThreadStopped?.('reader', error))
      : null;
  if (reader) {
    const repositories = { users, sessions, messages, usage };
    for (const [repo, methods] of Object.entries(ROUTED_READS)) {
      const repository = repositories[repo as RoutedRepository] as unknown as Record<string, Routable>;
      for (const method of methods) {
        const read = repository[method];
        if (read) repository[method] = reader.route(repo, method, read.bind(repository));
      }
    }
  }
  const readOnMain = <T>(reads: () => T): T => writes.atomic(reads)();
  let closing: Promise<void> | null = null;
  return {
    kind: 'embedded',
    users,
    refreshTokens: createRefreshTokenRepository(db, writes),
    sessions,
    messages,
    oneTimeTokens: createOneTimeTokenRepository(db, writes),
    identities: createIdentityRepository(db, writes),
    usage,
    sends: createSendRepository(writes, rows),
    customVoices: createCustomVoiceRepository(db, writes),
    customAvatars: createCustomAvatarRepository(db, writes),
    knownDevices: createKnownDeviceRepository(db, writes),
    synced: writes.synced,
    readTogether: (reads) => (reader ? reader.together(reads, readOnMain) : readOnMain(reads)),
    async ping() {
      // libsql's prepared statements keep answering after close(), so ask the handle first.
      if (!db.open) return false;
      try {
        select1.get({});
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closing ??= (async () => {
        // The reads already asked of the thread are answered before the connection closes.
        await reader?.close();
        await checkpointer?.close();
        if (!db.open) return;
        writes.flush();
        db.close();
        walChanges?.close();
        await wal?.close();
      })();
      return closing;
    },
  };
}
