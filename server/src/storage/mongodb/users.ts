import type { Preferences } from '@alma/protocol';
import type { Collection } from 'mongodb';
import {
  chosenAvatar,
  newUserRecord,
  normalizeEmail,
  preferencesPatch,
  withDefaultPreferences,
} from '../shared.ts';
import { UserPatchSchema, UserRecordSchema, definedFields, readRecord } from '../records.ts';
import { DuplicateKeyError, type UserRecord, type UserRepository } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

/**
 * `emailVerified` and `preferences` came after the first accounts: documents written before may
 * lack them (read as false and as the defaults). Preferences hold only what the user saved.
 */
export type UserDocument = Omit<UserRecord, 'id' | 'emailVerified'> & {
  _id: string;
  emailVerified?: boolean;
  preferences?: Partial<Preferences>;
  /** Absent until first bumped (reads as 0). */
  tokenVersion?: number;
};

/** A stored account; documents from before `emailVerified` read as not verified. */
export const fromDocument = (document: UserDocument | null): UserRecord | null =>
  document === null
    ? null
    : readRecord(UserRecordSchema, 'users', {
        ...document,
        id: document._id,
        emailVerified: document.emailVerified === true,
      });

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
    async update(id, patch) {
      // Only the updatable fields that are set; `$set` refuses an empty object, so then it only reads.
      const set = definedFields(UserPatchSchema, patch);
      const document =
        Object.keys(set).length === 0
          ? await users.findOne({ _id: id })
          : await users.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
      return fromDocument(document);
    },
    async getPreferences(id) {
      const document = await users.findOne({ _id: id }, { projection: { preferences: 1 } });
      return document === null ? null : withDefaultPreferences(document.preferences);
    },
    async updatePreferences(id, patch) {
      // One `$set` per field merges atomically in the document, so concurrent patches all land.
      const set = Object.fromEntries(
        Object.entries(preferencesPatch(patch)).map(([field, value]) => [`preferences.${field}`, value]),
      );
      const options = { projection: { preferences: 1 } } as const;
      const document =
        Object.keys(set).length === 0
          ? await users.findOne({ _id: id }, options)
          : await users.findOneAndUpdate({ _id: id }, { $set: set }, { ...options, returnDocument: 'after' });
      if (document === null) return null;
      const preferences = withDefaultPreferences(document.preferences);
      // `avatar` mirrors the chosen avatar of the preferences (User.avatar).
      if (patch.avatar !== undefined || patch.selectedAvatarId !== undefined)
        await users.updateOne({ _id: id }, { $set: { avatar: chosenAvatar(preferences) } });
      return preferences;
    },
    async tokenVersion(id) {
      const document = await users.findOne({ _id: id }, { projection: { tokenVersion: 1 } });
      return document === null ? null : (document.tokenVersion ?? 0);
    },
    async bumpTokenVersion(id) {
      const document = await users.findOneAndUpdate(
        { _id: id },
        { $inc: { tokenVersion: 1 } },
        { projection: { tokenVersion: 1 }, returnDocument: 'after' },
      );
      return document === null ? null : (document.tokenVersion ?? 0);
    },
  };
}
