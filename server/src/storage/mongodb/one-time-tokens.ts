import type { Collection } from 'mongodb';
import { OneTimeTokenRecordSchema } from '../records.ts';
import type { OneTimeTokenRecord, OneTimeTokenRepository } from '../types.ts';

/** `purgeAt`: expiresAt as a BSON date, for the TTL index that removes expired links. */
export type OneTimeTokenDocument = Omit<OneTimeTokenRecord, 'tokenHash'> & { _id: string; purgeAt?: Date };

export function createOneTimeTokenRepository(
  tokens: Collection<OneTimeTokenDocument>,
): OneTimeTokenRepository {
  return {
    async insert(record) {
      const { tokenHash, ...rest } = OneTimeTokenRecordSchema.parse(record);
      await tokens.insertOne({ _id: tokenHash, ...rest, purgeAt: new Date(rest.expiresAt) });
    },
    async consume(tokenHash, kind, now) {
      // The `usedAt: null` filter makes a link single-use: the document matches once. Times are
      // ISO strings, so string order is time order.
      const document = await tokens.findOneAndUpdate(
        { _id: tokenHash, kind, usedAt: null, expiresAt: { $gt: now } },
        { $set: { usedAt: now } },
        { projection: { userId: 1 } },
      );
      return document === null ? null : document.userId;
    },
    async revokeForUser(userId, kind, at) {
      await tokens.updateMany({ userId, kind, usedAt: null }, { $set: { usedAt: at } });
    },
  };
}
