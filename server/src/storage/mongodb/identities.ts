import type { Collection } from 'mongodb';
import { IdentityRecordSchema, readRecord } from '../records.ts';
import { DuplicateKeyError, type IdentityRecord, type IdentityRepository } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

/** Unique on (provider, subject) through an index; `_id` is the driver's and never leaves. */
export type IdentityDocument = IdentityRecord;

export function createIdentityRepository(identities: Collection<IdentityDocument>): IdentityRepository {
  return {
    async find(provider, subject) {
      const document = await identities.findOne({ provider, subject });
      return document === null ? null : readRecord(IdentityRecordSchema, 'identities', document);
    },
    async link(record) {
      try {
        await identities.insertOne({ ...IdentityRecordSchema.parse(record) });
      } catch (error) {
        if (duplicateKeyField(error) === undefined) throw error;
        throw new DuplicateKeyError('provider,subject');
      }
    },
    async listForUser(userId) {
      const documents = await identities
        .find({ userId })
        .sort({ createdAt: 1, provider: 1, subject: 1 })
        .toArray();
      return documents.map((row) => readRecord(IdentityRecordSchema, 'identities', row));
    },
  };
}
