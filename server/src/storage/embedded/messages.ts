import type { Message } from '@alma/protocol';
import type Database from 'libsql';
import { pageWindow, pickMessage } from '../shared.ts';
import type { MessageRepository, NewMessage } from '../types.ts';
import { prepare, toBoolean, toInteger } from './sql.ts';

type MessageRow = Omit<Message, 'isComplete' | 'emotionAnalysis'> & {
  isComplete: number;
  emotionAnalysis: string | null;
};

const COLUMNS = `_id, session_id AS sessionId, role, content, created_at AS createdAt,
  client_message_id AS clientMessageId, reply_to AS replyTo, emotion,
  emotion_analysis AS emotionAnalysis, language, user_language AS userLanguage, personality,
  audio_url AS audioUrl, is_complete AS isComplete`;

function fromRow(row: unknown): Message {
  const message = row as MessageRow;
  return pickMessage({
    ...message,
    isComplete: toBoolean(message.isComplete),
    emotionAnalysis:
      message.emotionAnalysis === null
        ? null
        : (JSON.parse(message.emotionAnalysis) as Message['emotionAnalysis']),
  });
}

const fromOptionalRow = (row: unknown): Message | null => (row === undefined ? null : fromRow(row));

export function createMessageRepository(db: Database.Database): MessageRepository {
  // The conflict target names the partial unique index, so only a repeated client id is skipped;
  // a repeated _id is a caller bug and still throws.
  const insert = prepare(
    db,
    `INSERT INTO messages (_id, session_id, user_id, role, content, created_at, client_message_id,
       reply_to, emotion, emotion_analysis, language, user_language, personality, audio_url, is_complete)
     VALUES (@_id, @sessionId, @userId, @role, @content, @createdAt, @clientMessageId,
       @replyTo, @emotion, @emotionAnalysis, @language, @userLanguage, @personality, @audioUrl, @isComplete)
     ON CONFLICT (user_id, client_message_id) WHERE client_message_id IS NOT NULL DO NOTHING`,
  );
  const byClientId = prepare(
    db,
    `SELECT ${COLUMNS} FROM messages WHERE user_id = @userId AND client_message_id = @clientMessageId`,
  );
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
  const countInSession = prepare(
    db,
    'SELECT count(*) AS total FROM messages WHERE session_id = @sessionId AND user_id = @userId',
  );
  const countByUser = prepare(db, 'SELECT count(*) AS total FROM messages WHERE user_id = @userId');

  const count = (row: unknown) => (row as { total: number }).total;
  const window = (userId: string, sessionId: string, page: number, pageSize: number) =>
    newestFirst
      .all({ userId, sessionId, ...pageWindow(page, pageSize) })
      .map(fromRow)
      .reverse();

  // Insert-or-read in one transaction, so the message returned as the duplicate's original is the
  // one that won, even with another process writing.
  const insertOnce = db.transaction((message: NewMessage) => {
    const { changes } = insert.run({
      ...message,
      emotionAnalysis: message.emotionAnalysis === null ? null : JSON.stringify(message.emotionAnalysis),
      isComplete: toInteger(message.isComplete),
    });
    if (changes === 1) return { message: pickMessage(message), duplicate: false };
    const existing = fromOptionalRow(
      byClientId.get({ userId: message.userId, clientMessageId: message.clientMessageId }),
    );
    if (existing === null) throw new Error(`message ${message._id} was neither stored nor found`);
    return { message: existing, duplicate: true };
  });
  // Count and items from one snapshot, so `total` agrees with the page.
  const readPage = db.transaction((userId: string, sessionId: string, page: number, pageSize: number) => ({
    items: window(userId, sessionId, page, pageSize),
    total: count(countInSession.get({ userId, sessionId })),
  }));

  return {
    async insert(message) {
      return insertOnce(message);
    },
    async findByClientMessageId(userId, clientMessageId) {
      return fromOptionalRow(byClientId.get({ userId, clientMessageId }));
    },
    async findReplyTo(userId, messageId) {
      return fromOptionalRow(replyTo.get({ userId, messageId }));
    },
    async page(userId, sessionId, page, pageSize) {
      return readPage(userId, sessionId, page, pageSize);
    },
    async recent(userId, sessionId, limit) {
      return window(userId, sessionId, 1, limit);
    },
    async countByUser(userId) {
      return count(countByUser.get({ userId }));
    },
  };
}
