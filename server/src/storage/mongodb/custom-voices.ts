import type { Collection } from 'mongodb';
import { CustomVoiceRecordSchema, readRecord } from '../records.ts';
import type { CustomVoiceRecord, CustomVoiceRepository } from '../types.ts';

/** The voice's id is `_id`; the record's fields are stored as they are. */
export type CustomVoiceDocument = Omit<CustomVoiceRecord, 'id'> & { _id: string };

const fromDocument = ({ _id, ...rest }: CustomVoiceDocument): CustomVoiceRecord =>
  readRecord(CustomVoiceRecordSchema, 'customVoices', { ...rest, id: _id });

export function createCustomVoiceRepository(voices: Collection<CustomVoiceDocument>): CustomVoiceRepository {
  return {
    async insert(record) {
      const { id, ...rest } = CustomVoiceRecordSchema.parse(record);
      await voices.insertOne({ _id: id, ...rest });
    },
    async find(userId, id) {
      const document = await voices.findOne({ _id: id, userId });
      return document === null ? null : fromDocument(document);
    },
    async listForUser(userId) {
      const documents = await voices.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return documents.map(fromDocument);
    },
    async delete(userId, id) {
      return (await voices.deleteOne({ _id: id, userId })).deletedCount > 0;
    },
    async usage(userId) {
      const [row] = await voices
        .aggregate<{ count: number; bytes: number }>([
          { $match: { userId } },
          { $group: { _id: null, count: { $sum: 1 }, bytes: { $sum: '$size' } } },
        ])
        .toArray();
      return { count: row?.count ?? 0, bytes: row?.bytes ?? 0 };
    },
    async existing(ids) {
      if (ids.length === 0) return new Set();
      const found = await voices.find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } }).toArray();
      return new Set(found.map((doc) => doc._id));
    },
  };
}
