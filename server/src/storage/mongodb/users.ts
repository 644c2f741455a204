import type { Collection } from 'mongodb';
import { newUserRecord, normalizeEmail, pickUser } from '../shared.ts';
import { DuplicateKeyError, type UserRecord, type UserRepository } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

export type UserDocument = Omit<UserRecord, 'id'> & { _id: string };

const fromDocument = (document: UserDocument | null): UserRecord | null =>
  document === null ? null : pickUser({ ...document, id: document._id });

export function createUserRepository(users: Collection<UserDocument>): UserRepository {
  return {
    async create(user) {
      const record = newUserRecord(user);
      const { id, ...fields } = record;
      try {
        await users.insertOne({ _id: id, ...fields });
      } catch (error) {
        const field = duplicateKeyField(error);
        if (field === undefined) throw error;
        throw new DuplicateKeyError(field === '_id' ? 'id' : field);
      }
      return record;
    },
    async findById(id) {
      return fromDocument(await users.findOne({ _id: id }));
    },
    async findByEmail(email) {
      return fromDocument(await users.findOne({ email: normalizeEmail(email) }));
    },
  };
}
