import type Database from 'libsql';
import { checkMessageLimit, checkVoiceSeconds } from '../shared.ts';
import { UsageRecordSchema, readRecord } from '../records.ts';
import type { UsageRecord, UsageRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';

/** The usage table's statements, synchronous: the repository's, and a send's one write (sends.ts). */
export function usageRows(db: Database.Database, atomic: GroupCommit['atomic']) {
  const read = prepare(
    db,
    `SELECT messages, voice_seconds AS voiceSeconds FROM usage
     WHERE user_id = @userId AND period = @period`,
  );
  // Counts one message unless the period's count has reached the limit (NULL: no limit). The row
  // is created by the first count; the conflict branch's WHERE makes the increment conditional,
  // and a skipped update reports no change.
  const countMessage = prepare(
    db,
    `INSERT INTO usage (user_id, period, messages) VALUES (@userId, @period, 1)
     ON CONFLICT (user_id, period) DO UPDATE SET messages = messages + 1
       WHERE @limit IS NULL OR messages < @limit`,
  );
  const addVoice = prepare(
    db,
    `INSERT INTO usage (user_id, period, voice_seconds) VALUES (@userId, @period, @seconds)
     ON CONFLICT (user_id, period) DO UPDATE SET voice_seconds = voice_seconds + @seconds`,
  );
  const reset = prepare(
    db,
    'UPDATE usage SET messages = 0, voice_seconds = 0 WHERE user_id = @userId AND period = @period',
  );

  const get = (userId: string, period: string): UsageRecord =>
    readRecord(UsageRecordSchema, 'usage', read.get({ userId, period }) ?? {});
  // The write and the read that reports it share one transaction, so the counters returned are
  // the ones this call left.
  const tryCount = atomic((userId: string, period: string, limit: number | null) => {
    // A limit of 0 allows nothing, not even the first count that would create the row.
    const counted = limit === 0 ? false : countMessage.run({ userId, period, limit }).changes === 1;
    return { counted, usage: get(userId, period) };
  });
  const addVoiceSeconds = atomic((userId: string, period: string, seconds: number) => {
    addVoice.run({ userId, period, seconds });
    return get(userId, period);
  });

  return {
    get,
    tryCount,
    addVoiceSeconds,
    reset: (userId: string, period: string) => void reset.run({ userId, period }),
  };
}

export type UsageRows = ReturnType<typeof usageRows>;

export function createUsageRepository(
  { get, tryCount, addVoiceSeconds, reset }: UsageRows,
  { write }: GroupCommit,
): UsageRepository {
  return {
    async get(userId, period) {
      return get(userId, period);
    },
    async tryCountMessage(userId, period, limit, options) {
      checkMessageLimit(limit);
      return write(() => tryCount(userId, period, limit), options);
    },
    async addVoiceSeconds(userId, period, seconds) {
      checkVoiceSeconds(seconds);
      return write(() => addVoiceSeconds(userId, period, seconds));
    },
    async reset(userId, period) {
      await write(() => reset(userId, period));
    },
  };
}
