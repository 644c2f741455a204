import type Database from 'libsql';
import { RefreshTokenRecordSchema, readRecord } from '../records.ts';
import { DuplicateKeyError, type RefreshTokenRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare, violatedConstraint } from './sql.ts';

const COLUMNS = `token_hash AS tokenHash, user_id AS userId, family_id AS familyId,
  expires_at AS expiresAt, created_at AS createdAt, revoked_at AS revokedAt, replaced_by AS replacedBy`;

export function createRefreshTokenRepository(
  db: Database.Database,
  { write }: GroupCommit,
): RefreshTokenRepository {
  const insert = prepare(
    db,
    `INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at, created_at, revoked_at, replaced_by)
     VALUES (@tokenHash, @userId, @familyId, @expiresAt, @createdAt, @revokedAt, @replacedBy)`,
  );
  const byHash = prepare(db, `SELECT ${COLUMNS} FROM refresh_tokens WHERE token_hash = @tokenHash`);
  // The `revoked_at IS NULL` condition is what makes rotation single-winner: the row changes once.
  const rotate = prepare(
    db,
    `UPDATE refresh_tokens SET revoked_at = @at, replaced_by = @replacedBy
     WHERE token_hash = @tokenHash AND revoked_at IS NULL`,
  );
  // Tokens already revoked keep the time they were first revoked.
  const revokeFamily = prepare(
    db,
    'UPDATE refresh_tokens SET revoked_at = @at WHERE family_id = @familyId AND revoked_at IS NULL',
  );
  const revokeUser = prepare(
    db,
    'UPDATE refresh_tokens SET revoked_at = @at WHERE user_id = @userId AND revoked_at IS NULL',
  );

  const liveInFamily = prepare(
    db,
    'SELECT 1 AS live FROM refresh_tokens WHERE family_id = @familyId AND revoked_at IS NULL LIMIT 1',
  );

  return {
    async insert(record) {
      try {
        await write(() => insert.run({ ...RefreshTokenRecordSchema.parse(record) }));
      } catch (error) {
        if (violatedConstraint(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY')
          throw new DuplicateKeyError('tokenHash');
        throw error;
      }
    },
    async findByHash(tokenHash) {
      const row = byHash.get({ tokenHash });
      return row === undefined ? null : readRecord(RefreshTokenRecordSchema, 'refresh_tokens', row);
    },
    async markRotated(tokenHash, replacedBy, at) {
      return (await write(() => rotate.run({ tokenHash, replacedBy, at }))).changes === 1;
    },
    async revokeFamily(familyId, at) {
      await write(() => revokeFamily.run({ familyId, at }));
    },
    async revokeAllForUser(userId, at) {
      await write(() => revokeUser.run({ userId, at }));
    },
    async familyActive(familyId) {
      return liveInFamily.get({ familyId }) !== undefined;
    },
  };
}
