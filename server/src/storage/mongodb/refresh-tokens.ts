import type { Collection } from 'mongodb';
import { pickRefreshToken } from '../shared.ts';
import type { RefreshTokenRecord, RefreshTokenRepository } from '../types.ts';

/** `purgeAt`: expiresAt as a BSON date, for the TTL index that removes expired tokens. */
export type RefreshTokenDocument = Omit<RefreshTokenRecord, 'tokenHash'> & { _id: string; purgeAt?: Date };

export function createRefreshTokenRepository(
  tokens: Collection<RefreshTokenDocument>,
): RefreshTokenRepository {
  return {
    async insert(record) {
      const { tokenHash, ...rest } = pickRefreshToken(record);
      await tokens.insertOne({ _id: tokenHash, ...rest, purgeAt: new Date(rest.expiresAt) });
    },
    async findByHash(tokenHash) {
      const document = await tokens.findOne({ _id: tokenHash });
      return document === null ? null : pickRefreshToken({ ...document, tokenHash: document._id });
    },
    async markRotated(tokenHash, replacedBy, at) {
      // The `revokedAt: null` filter makes rotation single-winner: the document matches once.
      const result = await tokens.updateOne(
        { _id: tokenHash, revokedAt: null },
        { $set: { revokedAt: at, replacedBy } },
      );
      return result.modifiedCount === 1;
    },
    // Tokens already revoked keep the time they were first revoked.
    async revokeFamily(familyId, at) {
      await tokens.updateMany({ familyId, revokedAt: null }, { $set: { revokedAt: at } });
    },
    async revokeAllForUser(userId, at) {
      await tokens.updateMany({ userId, revokedAt: null }, { $set: { revokedAt: at } });
    },
  };
}
