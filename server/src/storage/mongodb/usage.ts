import type { Collection } from 'mongodb';
import { checkMessageLimit, checkVoiceSeconds } from '../shared.ts';
import { UsageRecordSchema, readRecord } from '../records.ts';
import type { UsageRecord, UsageRepository } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

/** One document per user and month, unique on (userId, period) through an index. */
export type UsageDocument = UsageRecord & { userId: string; period: string };

/**
 * Runs an upsert, once more if it lost a race to create the same document: the loser's insert
 * breaks the unique index, and on the retry the document exists, so it updates.
 */
async function upsertRetrying<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (duplicateKeyField(error) === undefined) throw error;
    return write();
  }
}

/** A period's counters as stored; no document (nothing counted) and absent counters read as zeros. */
export const fromDocument = (document: Partial<UsageDocument> | null): UsageRecord =>
  readRecord(UsageRecordSchema, 'usage', document ?? {});

export function createUsageRepository(usage: Collection<UsageDocument>): UsageRepository {
  const get = async (userId: string, period: string) => fromDocument(await usage.findOne({ userId, period }));

  return {
    get,
    async tryCountMessage(userId, period, limit) {
      checkMessageLimit(limit);
      if (limit === null) {
        const document = await upsertRetrying(() =>
          usage.findOneAndUpdate(
            { userId, period },
            { $inc: { messages: 1 }, $setOnInsert: { voiceSeconds: 0 } },
            { upsert: true, returnDocument: 'after' },
          ),
        );
        return { counted: true, usage: fromDocument(document) };
      }
      // The document must exist first: an upsert whose condition fails would try to insert a
      // second one. Then a single conditional increment: the count can never pass the limit.
      await upsertRetrying(() =>
        usage.updateOne(
          { userId, period },
          { $setOnInsert: { messages: 0, voiceSeconds: 0 } },
          { upsert: true },
        ),
      );
      const counted = await usage.findOneAndUpdate(
        { userId, period, messages: { $lt: limit } },
        { $inc: { messages: 1 } },
        { returnDocument: 'after' },
      );
      return counted === null
        ? { counted: false, usage: await get(userId, period) }
        : { counted: true, usage: fromDocument(counted) };
    },
    async addVoiceSeconds(userId, period, seconds) {
      checkVoiceSeconds(seconds);
      const document = await upsertRetrying(() =>
        usage.findOneAndUpdate(
          { userId, period },
          { $inc: { voiceSeconds: seconds }, $setOnInsert: { messages: 0 } },
          { upsert: true, returnDocument: 'after' },
        ),
      );
      return fromDocument(document);
    },
    async reset(userId, period) {
      // Zeroed rather than deleted, so a count running beside it never finds its document gone.
      await usage.updateOne({ userId, period }, { $set: { messages: 0, voiceSeconds: 0 } });
    },
  };
}
