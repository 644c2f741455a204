import type Database from 'libsql';
import { OneTimeTokenRecordSchema } from '../records.ts';
import type { OneTimeTokenRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';

export function createOneTimeTokenRepository(
  db: Database.Database,
  { write }: GroupCommit,
): OneTimeTokenRepository {
  const insert = prepare(
    db,
    `INSERT INTO one_time_tokens (token_hash, user_id, kind, created_at, expires_at, used_at)
     VALUES (@tokenHash, @userId, @kind, @createdAt, @expiresAt, @usedAt)`,
  );
  // The `used_at IS NULL` condition is what makes a link single-use: the row changes once. Times
  // are ISO strings, so text order is time order.
  const use = prepare(
    db,
    `UPDATE one_time_tokens SET used_at = @now
     WHERE token_hash = @tokenHash AND kind = @kind AND used_at IS NULL AND expires_at > @now
     RETURNING user_id AS userId`,
  );
  const revoke = prepare(
    db,
    'UPDATE one_time_tokens SET used_at = @at WHERE user_id = @userId AND kind = @kind AND used_at IS NULL',
  );

  return {
    async insert(record) {
      await write(() => insert.run({ ...OneTimeTokenRecordSchema.parse(record) }));
    },
    async consume(tokenHash, kind, now) {
      const row = (await write(() => use.get({ tokenHash, kind, now }))) as { userId: string } | undefined;
      return row === undefined ? null : row.userId;
    },
    async revokeForUser(userId, kind, at) {
      await write(() => revoke.run({ userId, kind, at }));
    },
  };
}
