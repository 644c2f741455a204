import type { Collection, Filter } from 'mongodb';
import { CustomAvatarPatchSchema, CustomAvatarRecordSchema, definedFields, readRecord } from '../records.ts';
import type { CustomAvatarRecord, CustomAvatarRepository } from '../types.ts';

/** The avatar's id is `_id`; the record's fields are stored as they are. */
export type CustomAvatarDocument = Omit<CustomAvatarRecord, 'id'> & { _id: string };

const fromDocument = ({ _id, ...rest }: CustomAvatarDocument): CustomAvatarRecord =>
  readRecord(CustomAvatarRecordSchema, 'customAvatars', { ...rest, id: _id });

const HOLDS_SLOT = { $nin: ['failed', 'cancelled'] };

export function createCustomAvatarRepository(
  avatars: Collection<CustomAvatarDocument>,
): CustomAvatarRepository {
  return {
    async insert(record) {
      const { id, ...rest } = CustomAvatarRecordSchema.parse(record);
      await avatars.insertOne({ _id: id, ...rest });
    },
    async find(userId, id) {
      const document = await avatars.findOne({ _id: id, userId });
      return document === null ? null : fromDocument(document);
    },
    async listForUser(userId) {
      const documents = await avatars.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return documents.map(fromDocument);
    },
    async update(userId, id, patch, whenStatus) {
      const filter: Filter<CustomAvatarDocument> = { _id: id, userId };
      if (whenStatus?.length) filter.status = { $in: [...whenStatus] };
      const set = definedFields(CustomAvatarPatchSchema, patch);
      const document = Object.keys(set).length
        ? await avatars.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' })
        : await avatars.findOne(filter);
      return document === null ? null : fromDocument(document);
    },
    async delete(userId, id) {
      return (await avatars.deleteOne({ _id: id, userId })).deletedCount > 0;
    },
    async usage(userId) {
      const [row] = await avatars
        .aggregate<{ count: number; bytes: number; processing: number }>([
          { $match: { userId, status: HOLDS_SLOT } },
          {
            $group: {
              _id: null,
              count: { $sum: 1 },
              bytes: { $sum: { $ifNull: ['$processedSize', '$originalSize'] } },
              processing: { $sum: { $cond: [{ $in: ['$status', ['pending', 'processing']] }, 1, 0] } },
            },
          },
        ])
        .toArray();
      return { count: row?.count ?? 0, bytes: row?.bytes ?? 0, processing: row?.processing ?? 0 };
    },
    async listUnfinished() {
      const documents = await avatars
        .find({ status: { $in: ['pending', 'processing'] } })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      return documents.map(fromDocument);
    },
    async countPending() {
      return avatars.countDocuments({ status: 'pending' });
    },
  };
}
