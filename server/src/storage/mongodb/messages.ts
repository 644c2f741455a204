import type { Collection, Filter } from 'mongodb';
import { pageWindow } from '../shared.ts';
import {
  MessageTurnSchema,
  NewMessageSchema,
  ReplyPatchSchema,
  StoredMessageSchema,
  readRecord,
} from '../records.ts';
import { MessageSchema, type Message } from '@alma/protocol';
import type { MessageRepository, NewMessage, ReplyPatch, StoredMessage } from '../types.ts';
import { duplicateKeyField } from './errors.ts';

/** Stored as given: the message plus its owner; a reply in flight, its lease (SPEC.md M-5). */
export type MessageDocument = NewMessage & { leaseUntil?: number | null };

/** A message as callers see it: its owner and the export's fields stay in the document. */
export const messageFromDocument = (document: MessageDocument): Message =>
  readRecord(MessageSchema, 'messages', document);
/** With the export's fields; documents stored before them read as null (SPEC.md C-13). */
export const storedMessageFromDocument = (document: MessageDocument): StoredMessage =>
  readRecord(StoredMessageSchema, 'messages', document);
const fromDocument = (document: MessageDocument | null) =>
  document === null ? null : messageFromDocument(document);

/**
 * The `$type` clause repeats the partial unique index's filter, so the planner can use that index
 * (a partial index serves only queries that imply its filter).
 */
const byClientId = (userId: string, clientMessageId: string): Filter<MessageDocument> => ({
  userId,
  clientMessageId: { $eq: clientMessageId, $type: 'string' },
});

/** A reply's rewrite (C-5): its text and signals, and its audio when the patch has one. */
const replySet = (reply: ReplyPatch) => {
  const patch = ReplyPatchSchema.parse(reply);
  return {
    $set: {
      content: patch.content,
      isComplete: patch.isComplete,
      emotion: patch.emotion,
      emotionAnalysis: patch.emotionAnalysis,
      gesture: patch.gesture,
      ...(patch.audioUrl === undefined ? {} : { audioUrl: patch.audioUrl }),
    },
  };
};

export function createMessageRepository(messages: Collection<MessageDocument>): MessageRepository {
  const newestFirst = (userId: string, sessionId: string, page: number, pageSize: number) => {
    const { skip, limit } = pageWindow(page, pageSize);
    return messages
      .find({ sessionId, userId })
      .sort({ createdAt: -1, _id: -1 })
      .skip(skip)
      .limit(limit)
      .toArray();
  };
  const window = async (userId: string, sessionId: string, page: number, pageSize: number) =>
    (await newestFirst(userId, sessionId, page, pageSize)).map(messageFromDocument).reverse();

  const insertOne = async (message: NewMessage) => {
    const record = NewMessageSchema.parse(message);
    await messages.insertOne({
      ...record,
      gesture: record.gesture ?? null,
      voiceId: record.voiceId ?? null,
      avatarId: record.avatarId ?? null,
    });
    return record;
  };

  return {
    async insert(message, options) {
      try {
        const record = await insertOne(message);
        // After the message: a duplicate stores no reply row.
        if (options?.reply) await insertOne(options.reply);
        return { message: MessageSchema.parse(record), duplicate: false };
      } catch (error) {
        // Only a repeated client id is a duplicate send; a repeated _id is a caller bug.
        const field = duplicateKeyField(error);
        if (field === undefined || field === '_id' || message.clientMessageId === null) throw error;
        const existing = await messages.findOne(byClientId(message.userId, message.clientMessageId));
        if (existing === null) throw error;
        return { message: messageFromDocument(existing), duplicate: true };
      }
    },
    async findByClientMessageId(userId, clientMessageId) {
      return fromDocument(await messages.findOne(byClientId(userId, clientMessageId)));
    },
    async findReplyTo(userId, messageId) {
      return fromDocument(
        await messages.findOne({ userId, replyTo: messageId }, { sort: { createdAt: 1, _id: 1 } }),
      );
    },
    async updateReply(userId, messageId, reply) {
      return fromDocument(
        await messages.findOneAndUpdate({ _id: messageId, userId }, replySet(reply), {
          returnDocument: 'after',
        }),
      );
    },
    async rewriteReply(userId, messageId, reply) {
      return (await messages.updateOne({ _id: messageId, userId }, replySet(reply))).matchedCount > 0;
    },
    async delete(userId, messageId) {
      return (await messages.deleteOne({ _id: messageId, userId })).deletedCount === 1;
    },
    async all(userId, sessionId) {
      const documents = await messages.find({ sessionId, userId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return documents.map(storedMessageFromDocument);
    },
    async page(userId, sessionId, page, pageSize) {
      const [items, total] = await Promise.all([
        window(userId, sessionId, page, pageSize),
        messages.countDocuments({ sessionId, userId }),
      ]);
      return { items, total };
    },
    async recentTurns(userId, sessionId, limit) {
      const turns = await messages
        .find({ sessionId, userId }, { projection: { _id: 1, role: 1, content: 1, language: 1 } })
        .sort({ createdAt: -1, _id: -1 })
        .limit(pageWindow(1, limit).limit)
        .toArray();
      return turns.map((turn) => readRecord(MessageTurnSchema, 'messages', turn)).reverse();
    },
    async countByUser(userId) {
      return messages.countDocuments({ userId });
    },
    async findByAudioUrl(userId, audioUrl) {
      return fromDocument(await messages.findOne({ userId, audioUrl: { $eq: audioUrl } }));
    },
    async audioUrls(userId) {
      const documents = await messages
        .find({ userId, audioUrl: { $type: 'string' } }, { projection: { audioUrl: 1 } })
        .toArray();
      return documents.flatMap((d) => (d.audioUrl === null ? [] : [d.audioUrl]));
    },
    async clearAudioUrls(userId) {
      const result = await messages.updateMany(
        { userId, audioUrl: { $type: 'string' } },
        { $set: { audioUrl: null } },
      );
      return result.modifiedCount;
    },
    async leaseReplies(replyIds, until) {
      if (replyIds.length > 0)
        await messages.updateMany({ _id: { $in: [...replyIds] } }, { $set: { leaseUntil: until } });
    },
    async replyLease(replyId) {
      const document = await messages.findOne({ _id: replyId }, { projection: { leaseUntil: 1 } });
      return document?.leaseUntil ?? null;
    },
  };
}
