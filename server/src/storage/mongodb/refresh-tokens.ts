import type { Collection } from 'mongodb';
import { RefreshTokenRecordSchema, readRecord } from '../records.ts';
import { DuplicateKeyError, type RefreshTokenRecord, type RefreshTokenRepository } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

/** `purgeAt`: expiresAt as a BSON date, for the TTL index that removes expired tokens. */
export type RefreshTokenDocument = Omit<RefreshTokenRecord, 'tokenHash'> & { _id: string; purgeAt?: Date };

export function createRefreshTokenRepository(
  tokens: Collection<RefreshTokenDocument>,
): RefreshTokenRepository {
  return {
    async insert(record) {
      const { tokenHash, ...rest } = RefreshTokenRecordSchema.parse(record);
      try {
        await tokens.insertOne({ _id: tokenHash, ...rest, purgeAt: new Date(rest.expiresAt) });
      } catch (error) {
        if (duplicateKeyField(error) === undefined) throw error;
        throw new DuplicateKeyError('tokenHash');
      }
    },
    async findByHash(tokenHash) {
      const document = await tokens.findOne({ _id: tokenHash });
      return document === null
        ? null
        : readRecord(RefreshTokenRecordSchema, 'refreshTokens', { ...document, tokenHash: document._id });
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
    async familyActive(familyId) {
      return (await tokens.findOne({ familyId, revokedAt: null }, { projection: { _id: 1 } })) !== null;
    },
  };
}
