import type { Message } from '@alma/protocol';
import type Database from 'libsql';
import { pageWindow } from '../shared.ts';
import {
  MessageTurnSchema,
  NewMessageSchema,
  ReplyPatchSchema,
  StoredMessageSchema,
  readRecord,
} from '../records.ts';
import { MessageSchema } from '@alma/protocol';
import type { MessageRepository, NewMessage, ReplyPatch, StoredMessage } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare, toBoolean, toInteger } from './sql.ts';

type MessageRow = Omit<Message, 'isComplete' | 'emotionAnalysis'> & {
  isComplete: number;
  emotionAnalysis: string | null;
};

const COLUMNS = `_id, session_id AS sessionId, role, content, created_at AS createdAt,
  client_message_id AS clientMessageId, reply_to AS replyTo, emotion,
  emotion_analysis AS emotionAnalysis, language, user_language AS userLanguage, personality,
  audio_url AS audioUrl, is_complete AS isComplete`;
const STORED_COLUMNS = `${COLUMNS}, gesture, voice_id AS voiceId, avatar_id AS avatarId`;

function decode(row: unknown): Message {
  const message = row as MessageRow;
  return {
    ...message,
    isComplete: toBoolean(message.isComplete),
    emotionAnalysis:
      message.emotionAnalysis === null
        ? null
        : (JSON.parse(message.emotionAnalysis) as Message['emotionAnalysis']),
  };
}
const fromRow = (row: unknown): Message => readRecord(MessageSchema, 'messages', decode(row));
const storedFromRow = (row: unknown): StoredMessage =>
  readRecord(StoredMessageSchema, 'messages', decode(row));

const fromOptionalRow = (row: unknown): Message | null => (row === undefined ? null : fromRow(row));

/** A message's statements a send's one write shares (sends.ts), synchronous. */
export function messageRows(db: Database.Database, atomic: GroupCommit['atomic']) {
  // The conflict target names the partial unique index, so only a repeated client id is skipped;
  // a repeated _id is a caller bug and still throws.
  const insert = prepare(
    db,
    `INSERT INTO messages (_id, session_id, user_id, role, content, created_at, client_message_id,
       reply_to, emotion, emotion_analysis, language, user_language, personality, audio_url, is_complete,
       gesture, voice_id, avatar_id)
     VALUES (@_id, @sessionId, @userId, @role, @content, @createdAt, @clientMessageId,
       @replyTo, @emotion, @emotionAnalysis, @language, @userLanguage, @personality, @audioUrl, @isComplete,
       @gesture, @voiceId, @avatarId)
     ON CONFLICT (user_id, client_message_id) WHERE client_message_id IS NOT NULL DO NOTHING`,
  );
  const byClientId = prepare(
    db,
    `SELECT ${COLUMNS} FROM messages WHERE user_id = @userId AND client_message_id = @clientMessageId`,
  );
  const insertRow = (message: NewMessage) => {
    const record = NewMessageSchema.parse(message);
    const { changes } = insert.run({
      ...record,
      emotionAnalysis: record.emotionAnalysis === null ? null : JSON.stringify(record.emotionAnalysis),
      isComplete: toInteger(record.isComplete),
      gesture: record.gesture ?? null,
      voiceId: record.voiceId ?? null,
      avatarId: record.avatarId ?? null,
    });
    return { changes, record };
  };
  // Insert-or-read in one transaction, so the message returned as the duplicate's original is the
  // one that won, even with another process writing; a reply's row is stored with a new message.
  const insertOnce = atomic((message: NewMessage, reply: NewMessage | undefined) => {
    const { changes, record } = insertRow(message);
    if (changes === 1) {
      if (reply) insertRow(reply);
      return { message: MessageSchema.parse(record), duplicate: false };
    }
    const existing = fromOptionalRow(
      byClientId.get({ userId: message.userId, clientMessageId: message.clientMessageId }),
    );
    if (existing === null) throw new Error(`message ${message._id} was neither stored nor found`);
    return { message: existing, duplicate: true };
  });
  const findByClientId = (userId: string, clientMessageId: string) =>
    fromOptionalRow(byClientId.get({ userId, clientMessageId }));
  return { insert: insertOnce, findByClientId };
}

export type MessageRows = ReturnType<typeof messageRows>;

export function createMessageRepository(
  db: Database.Database,
  rows: MessageRows,
  { write, atomic }: GroupCommit,
): MessageRepository {
  const replyTo = prepare(
    db,
    `SELECT ${COLUMNS} FROM messages WHERE user_id = @userId AND reply_to = @messageId
     ORDER BY created_at, _id LIMIT 1`,
  );
  // Newest first so that LIMIT/OFFSET count from the end; callers reverse to oldest first.
  const newestFirst = prepare(
    db,
    `SELECT ${COLUMNS} FROM messages WHERE session_id = @sessionId AND user_id = @userId
     ORDER BY created_at DESC, _id DESC LIMIT @limit OFFSET @skip`,
  );
  const newestTurnsFirst = prepare(
    db,
    `SELECT _id, role, content, language FROM messages WHERE session_id = @sessionId AND user_id = @userId
     ORDER BY created_at DESC, _id DESC LIMIT @limit`,
  );
  const countInSession = prepare(
    db,
    'SELECT count(*) AS total FROM messages WHERE session_id = @sessionId AND user_id = @userId',
  );
  const countByUser = prepare(db, 'SELECT count(*) AS total FROM messages WHERE user_id = @userId');
  const updateReply = prepare(
    db,
    `UPDATE messages SET content = @content, is_complete = @isComplete, emotion = @emotion,
       emotion_analysis = @emotionAnalysis, gesture = @gesture,
       audio_url = CASE WHEN @setAudio = 1 THEN @audioUrl ELSE audio_url END
     WHERE _id = @messageId AND user_id = @userId`,
  );
  const byAudioUrl = prepare(
    db,
    `SELECT ${COLUMNS} FROM messages WHERE user_id = @userId AND audio_url = @audioUrl LIMIT 1`,
  );
  const audioUrls = prepare(
    db,
    'SELECT audio_url AS audioUrl FROM messages WHERE user_id = @userId AND audio_url IS NOT NULL',
  );
  const clearAudio = prepare(
    db,
    'UPDATE messages SET audio_url = NULL WHERE user_id = @userId AND audio_url IS NOT NULL',
  );
  const byId = prepare(db, `SELECT ${COLUMNS} FROM messages WHERE _id = @messageId AND user_id = @userId`);
  const remove = prepare(db, 'DELETE FROM messages WHERE _id = @messageId AND user_id = @userId');
  const lease = prepare(
    db,
    'UPDATE messages SET lease_until = @until WHERE _id IN (SELECT value FROM json_each(@ids))',
  );
  const leaseOf = prepare(db, 'SELECT lease_until AS until FROM messages WHERE _id = @replyId');
  const allInSession = prepare(
    db,
    `SELECT ${STORED_COLUMNS} FROM messages WHERE session_id = @sessionId AND user_id = @userId
     ORDER BY created_at, _id`,
  );

  const count = (row: unknown) => (row as { total: number }).total;
  const window = (userId: string, sessionId: string, page: number, pageSize: number) =>
    newestFirst
      .all({ userId, sessionId, ...pageWindow(page, pageSize) })
      .map(fromRow)
      .reverse();

  /** Writes the patch; whether the row was there. */
  const rewrite = (userId: string, messageId: string, reply: ReplyPatch): boolean => {
    const patch = ReplyPatchSchema.parse(reply);
    const { changes } = updateReply.run({
      userId,
      messageId,
      content: patch.content,
      isComplete: toInteger(patch.isComplete),
      emotion: patch.emotion,
      emotionAnalysis: patch.emotionAnalysis === null ? null : JSON.stringify(patch.emotionAnalysis),
      gesture: patch.gesture,
      setAudio: patch.audioUrl === undefined ? 0 : 1,
      audioUrl: patch.audioUrl ?? null,
    });
    return changes > 0;
  };
  const updateAndRead = atomic((userId: string, messageId: string, reply: ReplyPatch) =>
    rewrite(userId, messageId, reply) ? fromOptionalRow(byId.get({ userId, messageId })) : null,
  );
  // Count and items from one snapshot, so `total` agrees with the page.
  const readPage = atomic((userId: string, sessionId: string, page: number, pageSize: number) => ({
    items: window(userId, sessionId, page, pageSize),
    total: count(countInSession.get({ userId, sessionId })),
  }));

  return {
    async insert(message, options) {
      return write(() => rows.insert(message, options?.reply), options);
    },
    async findByClientMessageId(userId, clientMessageId) {
      return rows.findByClientId(userId, clientMessageId);
    },
    async findReplyTo(userId, messageId) {
      return fromOptionalRow(replyTo.get({ userId, messageId }));
    },
    async updateReply(userId, messageId, patch, options) {
      return write(() => updateAndRead(userId, messageId, patch), options);
    },
    async rewriteReply(userId, messageId, patch, options) {
      return write(() => rewrite(userId, messageId, patch), options);
    },
    async delete(userId, messageId) {
      return (await write(() => remove.run({ userId, messageId }))).changes === 1;
    },
    async all(userId, sessionId) {
      return allInSession.all({ userId, sessionId }).map(storedFromRow);
    },
    async page(userId, sessionId, page, pageSize) {
      return readPage(userId, sessionId, page, pageSize);
    },
    async recentTurns(userId, sessionId, limit) {
      return newestTurnsFirst
        .all({ userId, sessionId, limit: pageWindow(1, limit).limit })
        .map((row) => readRecord(MessageTurnSchema, 'messages', row))
        .reverse();
    },
    async countByUser(userId) {
      return count(countByUser.get({ userId }));
    },
    async findByAudioUrl(userId, audioUrl) {
      return fromOptionalRow(byAudioUrl.get({ userId, audioUrl }));
    },
    async audioUrls(userId) {
      return audioUrls.all({ userId }).map((row) => (row as { audioUrl: string }).audioUrl);
    },
    async clearAudioUrls(userId) {
      return (await write(() => clearAudio.run({ userId }))).changes;
    },
    async leaseReplies(replyIds, until) {
      if (replyIds.length > 0) await write(() => lease.run({ ids: JSON.stringify(replyIds), until }));
    },
    async replyLease(replyId) {
      const row = leaseOf.get({ replyId }) as { until: number | null } | undefined;
      return row?.until ?? null;
    },
  };
}
