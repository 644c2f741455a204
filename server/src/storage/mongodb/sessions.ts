import type { Collection } from 'mongodb';
import type { Emotion } from '@alma/protocol';
import { toChatSession } from '../shared.ts';
import { ConversationContextSchema, EmotionScoresSchema } from '../records.ts';
import type {
  ConversationContext,
  EmotionScores,
  SessionRecord,
  SessionRepository,
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

/** Every query is scoped to the owner, so another user's session reads as absent. */
export function createSessionRepository(
  sessions: Collection<SessionDocument>,
  messages: Collection<MessageDocument>,
): SessionRepository {
  const withCount = async (document: SessionDocument | null) => {
    if (document === null) return null;
    const count = await messages.countDocuments({ sessionId: document._id, userId: document.userId });
    return toChatSession({ ...document, sessionId: document._id }, count);
  };

  return {
    async create(session) {
      await sessions.insertOne({
        _id: session.sessionId,
        userId: session.userId,
        title: session.title,
        personality: session.personality,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        // Titles stored before title sources existed could only have been set by their user.
        titleSource: session.titleSource ?? null,
        context: null,
        emotionScores: null,
        dominantEmotion: null,
      });
      return toChatSession(session, 0);
    },
    async find(userId, sessionId) {
      return withCount(await sessions.findOne({ _id: sessionId, userId }));
    },
    async state(userId, sessionId) {
      const document = await sessions.findOne({ _id: sessionId, userId });
      const session = await withCount(document);
      if (document === null || session === null) return null;
      return {
        session,
        titleSource: document.titleSource ?? (document.title === null ? null : 'user'),
        context: document.context == null ? null : ConversationContextSchema.parse(document.context),
        emotionScores: EmotionScoresSchema.parse(document.emotionScores ?? {}),
      };
    },
    async list(userId) {
      const documents = await sessions.find({ userId }).sort({ updatedAt: -1, _id: -1 }).toArray();
      const counts = await messages
        .aggregate<{ _id: string; count: number }>([
          { $match: { userId, sessionId: { $in: documents.map((document) => document._id) } } },
          { $group: { _id: '$sessionId', count: { $sum: 1 } } },
        ])
        .toArray();
      const countOf = new Map(counts.map(({ _id, count }) => [_id, count]));
      return documents.map((document) =>
        toChatSession({ ...document, sessionId: document._id }, countOf.get(document._id) ?? 0),
      );
    },
    async update(userId, sessionId, patch) {
      // Absent fields keep their value; `$set` refuses an empty object, so an empty patch only reads.
      const set: Partial<SessionDocument> = {};
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.personality !== undefined) set.personality = patch.personality;
      if (patch.updatedAt !== undefined) set.updatedAt = patch.updatedAt;
      if (patch.titleSource !== undefined) set.titleSource = patch.titleSource;
      if (patch.context !== undefined) set.context = ConversationContextSchema.parse(patch.context);
      if (patch.emotionScores !== undefined)
        set.emotionScores = EmotionScoresSchema.parse(patch.emotionScores);
      if (patch.dominantEmotion !== undefined) set.dominantEmotion = patch.dominantEmotion;
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
