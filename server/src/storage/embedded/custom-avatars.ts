import type Database from 'libsql';
import { CustomAvatarPatchSchema, CustomAvatarRecordSchema, readRecord } from '../records.ts';
import type { CustomAvatarProgress, CustomAvatarRecord, CustomAvatarRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';

const COLUMNS = `id, user_id AS userId, name, description, tags, original_name AS originalName,
  original_size AS originalSize, created_at AS createdAt, started_at AS startedAt,
  estimated_ms AS estimatedMs, status, step, progress, upload_file AS uploadFile,
  model_file AS modelFile, processed_size AS processedSize, compression_ratio AS compressionRatio,
  rig_metadata AS rigMetadata, animation_config AS animationConfig, compatibility, error,
  completed_at AS completedAt`;

/** Record field → column, for the fields an update may change. JSON columns are marked. */
const PROGRESS_COLUMNS: Record<keyof CustomAvatarProgress, [column: string, json: boolean]> = {
  status: ['status', false],
  step: ['step', false],
  progress: ['progress', false],
  uploadFile: ['upload_file', false],
  modelFile: ['model_file', false],
  processedSize: ['processed_size', false],
  compressionRatio: ['compression_ratio', false],
  rigMetadata: ['rig_metadata', true],
  animationConfig: ['animation_config', true],
  compatibility: ['compatibility', true],
  error: ['error', true],
  completedAt: ['completed_at', false],
};
const JSON_FIELDS = ['tags', 'rigMetadata', 'animationConfig', 'compatibility', 'error'] as const;

const fromRow = (row: unknown): CustomAvatarRecord => {
  const r = { ...(row as Record<string, unknown>) };
  for (const f of JSON_FIELDS) r[f] = r[f] === null ? null : JSON.parse(r[f] as string);
  return readRecord(CustomAvatarRecordSchema, 'custom_avatars', r);
};

const toJson = (value: unknown) => (value === null ? null : JSON.stringify(value));

export function createCustomAvatarRepository(
  db: Database.Database,
  { write }: GroupCommit,
): CustomAvatarRepository {
  const insert = prepare(
    db,
    `INSERT INTO custom_avatars (id, user_id, name, description, tags, original_name, original_size,
       created_at, started_at, estimated_ms, status, step, progress, upload_file, model_file,
       processed_size, compression_ratio, rig_metadata, animation_config, compatibility, error, completed_at)
     VALUES (@id, @userId, @name, @description, @tags, @originalName, @originalSize, @createdAt,
       @startedAt, @estimatedMs, @status, @step, @progress, @uploadFile, @modelFile, @processedSize,
       @compressionRatio, @rigMetadata, @animationConfig, @compatibility, @error, @completedAt)`,
  );
  const find = prepare(db, `SELECT ${COLUMNS} FROM custom_avatars WHERE id = @id AND user_id = @userId`);
  const list = prepare(
    db,
    `SELECT ${COLUMNS} FROM custom_avatars WHERE user_id = @userId ORDER BY created_at, id`,
  );
  const unfinished = prepare(
    db,
    `SELECT ${COLUMNS} FROM custom_avatars WHERE status IN ('pending', 'processing') ORDER BY created_at, id`,
  );
  // The IN term is the partial index's own (custom_avatars_unfinished), so the count reads it.
  const pending = prepare(
    db,
    `SELECT count(*) AS count FROM custom_avatars
     WHERE status IN ('pending', 'processing') AND status = 'pending'`,
  );
  const remove = prepare(db, 'DELETE FROM custom_avatars WHERE id = @id AND user_id = @userId');
  const usage = prepare(
    db,
    `SELECT count(*) AS count,
       coalesce(sum(coalesce(processed_size, original_size)), 0) AS bytes,
       coalesce(sum(status IN ('pending', 'processing')), 0) AS processing
     FROM custom_avatars WHERE user_id = @userId AND status NOT IN ('failed', 'cancelled')`,
  );

  return {
    async insert(record) {
      const r = CustomAvatarRecordSchema.parse(record);
      await write(() =>
        insert.run({
          ...r,
          tags: JSON.stringify(r.tags),
          rigMetadata: toJson(r.rigMetadata),
          animationConfig: toJson(r.animationConfig),
          compatibility: toJson(r.compatibility),
          error: toJson(r.error),
        }),
      );
    },
    async find(userId, id) {
      const row = find.get({ userId, id });
      return row === undefined ? null : fromRow(row);
    },
    async listForUser(userId) {
      return list.all({ userId }).map(fromRow);
    },
    async update(userId, id, input, whenStatus) {
      const patch = CustomAvatarPatchSchema.parse(input);
      const sets: string[] = [];
      const params: Record<string, unknown> = { userId, id };
      for (const [field, value] of Object.entries(patch)) {
        const entry = PROGRESS_COLUMNS[field as keyof CustomAvatarProgress] as [string, boolean] | undefined;
        if (!entry || value === undefined) continue;
        sets.push(`${entry[0]} = @${field}`);
        params[field] = entry[1] ? toJson(value) : value;
      }
      const statusClause = whenStatus?.length
        ? ` AND status IN (${whenStatus.map((_, i) => `@s${i}`).join(', ')})`
        : '';
      whenStatus?.forEach((s, i) => (params[`s${i}`] = s));
      const sql = sets.length
        ? `UPDATE custom_avatars SET ${sets.join(', ')} WHERE id = @id AND user_id = @userId${statusClause} RETURNING ${COLUMNS}`
        : `SELECT ${COLUMNS} FROM custom_avatars WHERE id = @id AND user_id = @userId${statusClause}`;
      const row = await write(() => db.prepare(sql).get(params));
      return row === undefined ? null : fromRow(row);
    },
    async delete(userId, id) {
      return (await write(() => remove.run({ userId, id }))).changes > 0;
    },
    async usage(userId) {
      const row = usage.get({ userId }) as { count: number; bytes: number; processing: number };
      return { count: Number(row.count), bytes: Number(row.bytes), processing: Number(row.processing) };
    },
    async listUnfinished() {
      return unfinished.all({}).map(fromRow);
    },
    async countPending() {
      return Number((pending.get({}) as { count: number }).count);
    },
  };
}
