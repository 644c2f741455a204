import type Database from 'libsql';
import { IdentityRecordSchema, readRecord } from '../records.ts';
import { DuplicateKeyError, type IdentityRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare, violatedConstraint } from './sql.ts';

const COLUMNS = 'provider, subject, user_id AS userId, email, created_at AS createdAt';

const fromRow = (row: unknown) => readRecord(IdentityRecordSchema, 'identities', row);

export function createIdentityRepository(db: Database.Database, { write }: GroupCommit): IdentityRepository {
  const insert = prepare(
    db,
    `INSERT INTO identities (provider, subject, user_id, email, created_at)
     VALUES (@provider, @subject, @userId, @email, @createdAt)`,
  );
  const find = prepare(
    db,
    `SELECT ${COLUMNS} FROM identities WHERE provider = @provider AND subject = @subject`,
  );
  const listForUser = prepare(
    db,
    `SELECT ${COLUMNS} FROM identities WHERE user_id = @userId ORDER BY created_at, provider, subject`,
  );

  return {
    async find(provider, subject) {
      const row = find.get({ provider, subject });
      return row === undefined ? null : fromRow(row);
    },
    async link(record) {
      try {
        await write(() => insert.run({ ...IdentityRecordSchema.parse(record) }));
      } catch (error) {
        // (provider, subject) is the key; the table has no other unique constraint.
        if (violatedConstraint(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new DuplicateKeyError('provider,subject');
        }
        throw error;
      }
    },
    async listForUser(userId) {
      return listForUser.all({ userId }).map(fromRow);
    },
  };
}
