import Database from 'libsql';
import type { Storage } from '../types.ts';
import { createCustomAvatarRepository } from './custom-avatars.ts';
import { createCustomVoiceRepository } from './custom-voices.ts';
import { createGroupCommit } from './group-commit.ts';
import { createIdentityRepository } from './identities.ts';
import { createKnownDeviceRepository } from './known-devices.ts';
import { migrate } from './migrations.ts';
import { createMessageRepository } from './messages.ts';
import { createOneTimeTokenRepository } from './one-time-tokens.ts';
import { createRefreshTokenRepository } from './refresh-tokens.ts';
import { createSessionRepository } from './sessions.ts';
import { prepare } from './sql.ts';
import { createUsageRepository } from './usage.ts';
import { createUserRepository } from './users.ts';

/** How long a write waits for another process's lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The default store: SQLite through libsql in one file (`:memory:` for throwaway use). The driver
 * is synchronous; the repositories are async only to match the interface the MongoDB store needs.
 * All repositories share one connection: a synchronous call runs to its end, so one repository's
 * transaction never interleaves with another's statements.
 */
export function openEmbeddedStorage({ file }: { file: string }): Storage {
  const db = new Database(file);
  try {
    // WAL lets readers run beside the writer; synchronous=FULL fsyncs the WAL on every commit, so
    // a write that was acknowledged survives kill -9 and power loss (NORMAL would not). Writes
    // are acknowledged only after their group's commit (group-commit.ts).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
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
  // Writes of one event-loop turn share a transaction and its fsync (group-commit.ts).
  const writes = createGroupCommit(db);
  return {
    kind: 'embedded',
    users: createUserRepository(db, writes),
    refreshTokens: createRefreshTokenRepository(db, writes),
    sessions: createSessionRepository(db, writes),
    messages: createMessageRepository(db, writes),
    oneTimeTokens: createOneTimeTokenRepository(db, writes),
    identities: createIdentityRepository(db, writes),
    usage: createUsageRepository(db, writes),
    customVoices: createCustomVoiceRepository(db, writes),
    customAvatars: createCustomAvatarRepository(db, writes),
    knownDevices: createKnownDeviceRepository(db, writes),
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
    async close() {
      if (!db.open) return;
      writes.flush();
      db.close();
    },
  };
}
