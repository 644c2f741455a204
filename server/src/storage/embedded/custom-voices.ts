import type Database from 'libsql';
import { CustomVoiceRecordSchema, readRecord } from '../records.ts';
import type { CustomVoiceRecord, CustomVoiceRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';

const COLUMNS = `id, user_id AS userId, name, description, category, language, gender, format,
  original_name AS originalName, file, size, created_at AS createdAt, analysis, speech`;

interface Row extends Omit<CustomVoiceRecord, 'analysis' | 'speech'> {
  analysis: string;
  speech: string;
}

const fromRow = (row: unknown): CustomVoiceRecord => {
  const r = row as Row;
  return readRecord(CustomVoiceRecordSchema, 'custom_voices', {
    ...r,
    analysis: JSON.parse(r.analysis) as CustomVoiceRecord['analysis'],
    speech: JSON.parse(r.speech) as CustomVoiceRecord['speech'],
  });
};

export function createCustomVoiceRepository(
  db: Database.Database,
  { write }: GroupCommit,
): CustomVoiceRepository {
  const insert = prepare(
    db,
    `INSERT INTO custom_voices (id, user_id, name, description, category, language, gender, format,
       original_name, file, size, created_at, analysis, speech)
     VALUES (@id, @userId, @name, @description, @category, @language, @gender, @format,
       @originalName, @file, @size, @createdAt, @analysis, @speech)`,
  );
  const find = prepare(db, `SELECT ${COLUMNS} FROM custom_voices WHERE id = @id AND user_id = @userId`);
  const list = prepare(
    db,
    `SELECT ${COLUMNS} FROM custom_voices WHERE user_id = @userId ORDER BY created_at, id`,
  );
  const remove = prepare(db, 'DELETE FROM custom_voices WHERE id = @id AND user_id = @userId');
  const byIds = prepare(db, 'SELECT id FROM custom_voices WHERE id IN (SELECT value FROM json_each(@ids))');
  const usage = prepare(
    db,
    'SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM custom_voices WHERE user_id = @userId',
  );

  return {
    async insert(record) {
      const r = CustomVoiceRecordSchema.parse(record);
      await write(() =>
        insert.run({ ...r, analysis: JSON.stringify(r.analysis), speech: JSON.stringify(r.speech) }),
      );
    },
    async find(userId, id) {
      const row = find.get({ userId, id });
      return row === undefined ? null : fromRow(row);
    },
    async listForUser(userId) {
      return list.all({ userId }).map(fromRow);
    },
    async delete(userId, id) {
      return (await write(() => remove.run({ userId, id }))).changes > 0;
    },
    async usage(userId) {
      const row = usage.get({ userId }) as { count: number; bytes: number };
      return { count: Number(row.count), bytes: Number(row.bytes) };
    },
    async existing(ids) {
      if (ids.length === 0) return new Set();
      const rows = byIds.all({ ids: JSON.stringify(ids) }) as { id: string }[];
      return new Set(rows.map((row) => row.id));
    },
  };
}
