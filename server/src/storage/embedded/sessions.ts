import type { ChatSession, Emotion } from '@alma/protocol';
import type Database from 'libsql';
import { toChatSession } from '../shared.ts';
import {
  ConversationContextSchema,
  EmotionScoresSchema,
  SessionPatchSchema,
  SessionRecordSchema,
  StoredChatSessionSchema,
  readRecord,
} from '../records.ts';
import type { SessionPatch, SessionRecord, SessionRepository, SessionState, TitleSource } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';
import type { WalChanges } from './wal-changes.ts';

/**
 * Rows of users' session lists kept in memory (a list and the version it was read at, migration
 * 10), the lists read longest ago dropped first: room for the lists of thousands of users at once.
 */
const CACHED_LIST_ROWS = 50_000;

type SessionRow = SessionRecord & { messageCount: number; dominantEmotion: Emotion | null };
type StateRow = SessionRow & {
  titleSource: TitleSource | null;
  context: string | null;
  emotionScores: string | null;
};

/**
 * Every query is scoped to the owner, so another user's session reads as absent. The message count
 * is kept on the row by triggers (migration 7): no count per session is run.
 */
const SELECT = `SELECT s.session_id AS sessionId, s.user_id AS userId, s.title, s.personality,
    s.created_at AS createdAt, s.updated_at AS updatedAt, s.dominant_emotion AS dominantEmotion,
    s.message_count AS messageCount
  FROM sessions s`;
const SELECT_STATE = SELECT.replace(
  ' FROM sessions s',
  `, s.title_source AS titleSource, s.context, s.emotion_scores AS emotionScores
  FROM sessions s`,
);

function fromRow(row: unknown) {
  const session = row as SessionRow;
  return toChatSession(session, session.messageCount);
}

function stateFromRow(row: unknown): SessionState {
  const state = row as StateRow;
  return {
    session: fromRow(state),
    // A title of unknown origin counts as the user's (as in the MongoDB store).
    titleSource: state.titleSource ?? (state.title === null ? null : 'user'),
    context:
      state.context === null
        ? null
        : readRecord(
            ConversationContextSchema,
            'sessions.context',
            JSON.parse(state.context),
            state.sessionId,
          ),
    emotionScores:
      state.emotionScores === null
        ? {}
        : readRecord(
            EmotionScoresSchema,
            'sessions.emotion_scores',
            JSON.parse(state.emotionScores),
            state.sessionId,
          ),
  };
}

/** A session's statements a send's one write shares (sends.ts), synchronous. */
export function sessionRows(db: Database.Database, atomic: GroupCommit['atomic']) {
  const insert = prepare(
    db,
    `INSERT INTO sessions (session_id, user_id, title, personality, created_at, updated_at, title_source)
     VALUES (@sessionId, @userId, @title, @personality, @createdAt, @updatedAt, @titleSource)`,
  );
  const find = prepare(db, `${SELECT} WHERE s.session_id = @sessionId AND s.user_id = @userId`);
  // One statement for any patch: an absent field binds NULL and keeps its value. Fields that may
  // be set to NULL on purpose need a flag.
  const update = prepare(
    db,
    `UPDATE sessions SET
       title = iif(@setTitle, @title, title),
       title_source = iif(@setTitleSource, @titleSource, title_source),
       personality = coalesce(@personality, personality),
       updated_at = coalesce(@updatedAt, updated_at),
       context = coalesce(@context, context),
       emotion_scores = coalesce(@emotionScores, emotion_scores),
       dominant_emotion = iif(@setDominantEmotion, @dominantEmotion, dominant_emotion)
     WHERE session_id = @sessionId AND user_id = @userId`,
  );
  const findSession = (userId: string, sessionId: string) => {
    const row = find.get({ userId, sessionId });
    return row === undefined ? null : fromRow(row);
  };
  const flag = (value: unknown) => (value === undefined ? 0 : 1);
  const updateAndRead = atomic((userId: string, sessionId: string, input: SessionPatch) => {
    const patch = SessionPatchSchema.parse(input);
    const { changes } = update.run({
      userId,
      sessionId,
      setTitle: flag(patch.title),
      title: patch.title ?? null,
      setTitleSource: flag(patch.titleSource),
      titleSource: patch.titleSource ?? null,
      personality: patch.personality ?? null,
      updatedAt: patch.updatedAt ?? null,
      context: patch.context === undefined ? null : JSON.stringify(patch.context),
      emotionScores: patch.emotionScores === undefined ? null : JSON.stringify(patch.emotionScores),
      setDominantEmotion: flag(patch.dominantEmotion),
      dominantEmotion: patch.dominantEmotion ?? null,
    });
    return changes === 0 ? null : findSession(userId, sessionId);
  });

  // Rows only through their schema (records.ts): a bad record throws before anything is written.
  const create = (input: SessionRecord): ChatSession => {
    const session = SessionRecordSchema.parse(input);
    insert.run({ ...session, titleSource: session.titleSource ?? null });
    return toChatSession(session, 0);
  };
  return { create, find: findSession, update: updateAndRead };
}

export type SessionRows = ReturnType<typeof sessionRows>;

export function createSessionRepository(
  db: Database.Database,
  rows: SessionRows,
  { write }: GroupCommit,
  /** Whether anything was committed since (the file's WAL-index header); null: ask every time. */
  walChanges: WalChanges | null = null,
): SessionRepository {
  const findState = prepare(db, `${SELECT_STATE} WHERE s.session_id = @sessionId AND s.user_id = @userId`);
  // The list comes back as one JSON array in one row: libsql builds a JS object per row through
  // native calls, which cost more than the query (issue 14). Exactly the fields of a ChatSession.
  const list = prepare(
    db,
    `SELECT json_group_array(json_object('sessionId', session_id, 'title', title,
         'personality', personality, 'createdAt', created_at, 'updatedAt', updated_at,
         'messageCount', message_count, 'dominantEmotion', dominant_emotion)
         ORDER BY updated_at DESC, session_id DESC) AS sessions
       FROM sessions WHERE user_id = @userId`,
  );
  const listVersion = prepare(db, 'SELECT sessions_version FROM users WHERE id = @userId').raw(true);
  /**
   * userId → the list last read, its version, and the WAL generation taken before that version
   * was last read (nothing committed since: the version stands); in the order they were read.
   */
  const lists = new Map<
    string,
    { version: number; sessions: readonly ChatSession[]; generation: number | undefined }
  >();
  let listedRows = 0;
  const forget = (userId: string) => {
    listedRows -= lists.get(userId)?.sessions.length ?? 0;
    lists.delete(userId);
  };
  const readList = (userId: string): ChatSession[] => {
    const { sessions } = list.get({ userId }) as { sessions: string };
    return (JSON.parse(sessions) as unknown[]).map((row) =>
      readRecord(StoredChatSessionSchema, 'sessions', row),
    );
  };
  // Its messages go with it (ON DELETE CASCADE).
  const remove = prepare(db, 'DELETE FROM sessions WHERE session_id = @sessionId AND user_id = @userId');

  return {
    async create(input, options) {
      return write(() => rows.create(input), options);
    },
    async find(userId, sessionId) {
      return rows.find(userId, sessionId);
    },
    async state(userId, sessionId) {
      const row = findState.get({ userId, sessionId });
      return row === undefined ? null : stateFromRow(row);
    },
    // The list as read last time while the user's list version has not moved (issue 14): one
    // indexed read instead of the list's query and a check of each row — and not even that while
    // nothing at all was committed to the file since the version was last read (wal-changes.ts).
    // The generation is taken before the version and the version before the list, so a change
    // committed between two of these reads leaves a list newer than what it was checked against,
    // which the next call reads again — never an older one. Lists are shared: frozen.
    async list(userId) {
      const generation = walChanges?.generation();
      const kept = lists.get(userId);
      if (kept && generation !== undefined && kept.generation === generation) {
        return kept.sessions as ChatSession[];
      }
      const version = (listVersion.get({ userId }) as [number] | undefined)?.[0];
      if (kept && kept.version === version) {
        kept.generation = generation;
        return kept.sessions as ChatSession[];
      }
      const sessions = readList(userId);
      forget(userId);
      if (version === undefined) return sessions;
      for (const session of sessions) Object.freeze(session);
      lists.set(userId, { version, sessions: Object.freeze(sessions), generation });
      listedRows += sessions.length;
      for (const oldest of lists.keys()) {
        if (listedRows <= CACHED_LIST_ROWS) break;
        forget(oldest);
      }
      return sessions;
    },
    async update(userId, sessionId, patch, options) {
      return write(() => rows.update(userId, sessionId, patch), options);
    },
    async delete(userId, sessionId) {
      return (await write(() => remove.run({ userId, sessionId }))).changes === 1;
    },
  };
}
