import type Database from 'libsql';
import { toChatSession } from '../shared.ts';
import type { SessionRecord, SessionRepository } from '../types.ts';
import { prepare } from './sql.ts';

type SessionRow = SessionRecord & { messageCount: number };

/** Every query is scoped to the owner, so another user's session reads as absent. */
const SELECT = `SELECT s.session_id AS sessionId, s.user_id AS userId, s.title, s.personality,
    s.created_at AS createdAt, s.updated_at AS updatedAt,
    (SELECT count(*) FROM messages m WHERE m.session_id = s.session_id AND m.user_id = s.user_id)
      AS messageCount
  FROM sessions s`;

function fromRow(row: unknown) {
  const session = row as SessionRow;
  return toChatSession(session, session.messageCount);
}

export function createSessionRepository(db: Database.Database): SessionRepository {
  const insert = prepare(
    db,
    `INSERT INTO sessions (session_id, user_id, title, personality, created_at, updated_at)
     VALUES (@sessionId, @userId, @title, @personality, @createdAt, @updatedAt)`,
  );
  const find = prepare(db, `${SELECT} WHERE s.session_id = @sessionId AND s.user_id = @userId`);
  const list = prepare(
    db,
    `${SELECT} WHERE s.user_id = @userId ORDER BY s.updated_at DESC, s.session_id DESC`,
  );
  // One statement for any patch: an absent field binds NULL and keeps its value. Title may be set
  // to NULL on purpose, so it alone needs a flag.
  const update = prepare(
    db,
    `UPDATE sessions SET
       title = iif(@setTitle, @title, title),
       personality = coalesce(@personality, personality),
       updated_at = coalesce(@updatedAt, updated_at)
     WHERE session_id = @sessionId AND user_id = @userId`,
  );
  // Its messages go with it (ON DELETE CASCADE).
  const remove = prepare(db, 'DELETE FROM sessions WHERE session_id = @sessionId AND user_id = @userId');

  const findSession = (userId: string, sessionId: string) => {
    const row = find.get({ userId, sessionId });
    return row === undefined ? null : fromRow(row);
  };
  const updateAndRead = db.transaction(
    (userId: string, sessionId: string, patch: Parameters<SessionRepository['update']>[2]) => {
      const { changes } = update.run({
        userId,
        sessionId,
        setTitle: patch.title === undefined ? 0 : 1,
        title: patch.title ?? null,
        personality: patch.personality ?? null,
        updatedAt: patch.updatedAt ?? null,
      });
      return changes === 0 ? null : findSession(userId, sessionId);
    },
  );

  return {
    async create(session) {
      insert.run({ ...session });
      return toChatSession(session, 0);
    },
    async find(userId, sessionId) {
      return findSession(userId, sessionId);
    },
    async list(userId) {
      return list.all({ userId }).map(fromRow);
    },
    async update(userId, sessionId, patch) {
      return updateAndRead(userId, sessionId, patch);
    },
    async delete(userId, sessionId) {
      return remove.run({ userId, sessionId }).changes === 1;
    },
  };
}
