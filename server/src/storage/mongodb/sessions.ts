import type { Collection } from 'mongodb';
import type { ChatSession, Emotion } from '@alma/protocol';
import { toChatSession } from '../shared.ts';
import {
  ConversationContextSchema,
  EmotionScoresSchema,
  SessionPatchSchema,
  SessionRecordSchema,
  definedFields,
  readRecord,
} from '../records.ts';
import type {
  ConversationContext,
  EmotionScores,
  SessionRecord,
  SessionRepository,
  SessionState,
  TitleSource,
} from '../types.ts';
import type { MessageDocument } from './messages.ts';

/** Fields added after the first release may be absent from older documents: they read as null. */
export type SessionDocument = Omit<SessionRecord, 'sessionId' | 'titleSource'> & {
  _id: string;
  titleSource?: TitleSource | null;
  context?: ConversationContext | null;
  emotionScores?: EmotionScores | null;
  dominantEmotion?: Emotion | null;
};

/** A session as callers see it, with its message count (counted by the caller). */
export const sessionFromDocument = (document: SessionDocument, messageCount: number): ChatSession =>
  toChatSession({ ...document, sessionId: document._id }, messageCount);

/**
 * A session with what the next exchange builds on. Documents from before title sources, contexts
 * and scores read as a user's title (when titled), no context and no scores.
 */
export const stateFromDocument = (document: SessionDocument, messageCount: number): SessionState => ({
  session: sessionFromDocument(document, messageCount),
  titleSource: document.titleSource ?? (document.title === null ? null : 'user'),
  context:
    document.context == null
      ? null
      : readRecord(ConversationContextSchema, 'sessions.context', document.context, document._id),
  emotionScores: readRecord(
    EmotionScoresSchema,
    'sessions.emotionScores',
    document.emotionScores ?? {},
    document._id,
  ),
});

/** Every query is scoped to the owner, so another user's session reads as absent. */
export function createSessionRepository(
  sessions: Collection<SessionDocument>,
  messages: Collection<MessageDocument>,
): SessionRepository {
  const countOf = (document: SessionDocument) =>
    messages.countDocuments({ sessionId: document._id, userId: document.userId });
  const withCount = async (document: SessionDocument | null) =>
    document === null ? null : sessionFromDocument(document, await countOf(document));

  return {
    async create(input) {
      const { sessionId, ...session } = SessionRecordSchema.parse(input);
      await sessions.insertOne({
        _id: sessionId,
        ...session,
        // Titles stored before title sources existed could only have been set by their user.
        titleSource: session.titleSource ?? null,
        context: null,
        emotionScores: null,
        dominantEmotion: null,
      });
      return toChatSession({ sessionId, ...session }, 0);
    },
    async find(userId, sessionId) {
      return withCount(await sessions.findOne({ _id: sessionId, userId }));
    },
    async state(userId, sessionId) {
      const document = await sessions.findOne({ _id: sessionId, userId });
      return document === null ? null : stateFromDocument(document, await countOf(document));
    },
    async list(userId) {
      const documents = await sessions.find({ userId }).sort({ updatedAt: -1, _id: -1 }).toArray();
      const counts = await messages
        .aggregate<{ _id: string; count: number }>([
          { $match: { userId, sessionId: { $in: documents.map((document) => document._id) } } },
          { $group: { _id: '$sessionId', count: { $sum: 1 } } },
        ])
        .toArray();
      const counted = new Map(counts.map(({ _id, count }) => [_id, count]));
      return documents.map((document) => sessionFromDocument(document, counted.get(document._id) ?? 0));
    },
    async update(userId, sessionId, patch) {
      // Absent fields keep their value; `$set` refuses an empty object, so an empty patch only reads.
      const set = definedFields(SessionPatchSchema, patch);
      const filter = { _id: sessionId, userId };
      const document =
        Object.keys(set).length === 0
          ? await sessions.findOne(filter)
          : await sessions.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
      return withCount(document);
    },
    async delete(userId, sessionId) {
      // Without a transaction (which needs a replica set) the messages go first: a crash in
      // between leaves an empty session the user can see and delete again, never hidden orphans.
      await messages.deleteMany({ sessionId, userId });
      const { deletedCount } = await sessions.deleteOne({ _id: sessionId, userId });
      return deletedCount === 1;
    },
  };
}
