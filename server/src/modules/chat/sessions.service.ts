import {
  DEFAULT_LANGUAGE,
  type ChatExport,
  type ChatSession,
  type EmotionAnalysis,
  type Language,
  type Message,
  type MessagesPage,
  type Personality,
  type SessionContext,
} from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { MessageSchema } from '@alma/protocol';
import type {
  MessageRepository,
  SessionRecord,
  SessionRepository,
  SessionState,
  WriteOptions,
} from '../../storage/types.ts';
import { autoTitle } from './auto-title.ts';
import { animationIntentOf } from './chat-reply.ts';
import { personalityChangedText } from './personalities.ts';
import type { ReplyRegistry } from './reply-registry.ts';
import type { RecordedExchange } from './reply-run.ts';
import { scoreEmotion, toSessionContext, updateContext } from './session-context.ts';

export interface SessionsServiceDeps {
  sessions: SessionRepository;
  messages: MessageRepository;
  publisher: Publisher;
  /** Session locks, and stopping a deleted session's replies. */
  replies: Pick<ReplyRegistry, 'withSessionLock' | 'stopSession'>;
  newId: IdGenerator;
  clock: Clock;
}

/**
 * A user's conversations (SPEC.md C-3, C-6, C-9, C-11…C-14): create, list, rename, title, read
 * the history and the context, export, change the personality, delete — and, after each stored
 * reply, the session's emotion scores, context and first title. Every change is announced to
 * the user's sockets as `session:updated`.
 */
export function createSessionsService(deps: SessionsServiceDeps) {
  const { sessions, messages, publisher, replies } = deps;
  const now = () => deps.clock().toISOString();

  async function own(userId: string, sessionId: string): Promise<ChatSession> {
    const session = await sessions.find(userId, sessionId);
    if (!session) throw new AppError('not_found', { detail: `session ${sessionId}` });
    return session;
  }

  async function ownState(userId: string, sessionId: string): Promise<SessionState> {
    const state = await sessions.state(userId, sessionId);
    if (!state) throw new AppError('not_found', { detail: `session ${sessionId}` });
    return state;
  }

  /** C-3: announced to all the user's sockets. */
  const announceCreated = (userId: string, session: ChatSession) =>
    publisher.toUser(userId, 'session:updated', { kind: 'created', session });

  /**
   * A new session not stored yet, and as it reads once stored: a send stores it in the message's
   * own write (SendWrite.newSession).
   */
  function draft(
    userId: string,
    personality: Personality,
    title: string | null = null,
  ): { record: SessionRecord; session: ChatSession } {
    const at = now();
    const titled = title !== null && title.length > 0;
    const record: SessionRecord = {
      sessionId: deps.newId(),
      userId,
      title: titled ? title : null,
      titleSource: titled ? 'user' : null,
      personality,
      createdAt: at,
      updatedAt: at,
    };
    const { sessionId, createdAt, updatedAt } = record;
    return {
      record,
      session: {
        sessionId,
        title: record.title,
        personality,
        createdAt,
        updatedAt,
        messageCount: 0,
        dominantEmotion: null,
      },
    };
  }

  /** A new session, announced to the user's sockets once stored (C-3). */
  async function create(
    userId: string,
    title: string | null,
    personality: Personality,
  ): Promise<ChatSession> {
    const session = await sessions.create(draft(userId, personality, title).record);
    announceCreated(userId, session);
    return session;
  }

  async function firstUserMessage(userId: string, sessionId: string): Promise<Message | null> {
    const all = await messages.all(userId, sessionId);
    const first = all.find((m) => m.role === 'user');
    return first ? MessageSchema.parse(first) : null;
  }

  return {
    own,
    ownState,
    draft,
    create,
    announceCreated,
    list: (userId: string) => sessions.list(userId),

    async rename(userId: string, sessionId: string, title: string): Promise<ChatSession> {
      const session = await sessions.update(userId, sessionId, {
        title,
        titleSource: 'user',
        updatedAt: now(),
      });
      if (!session) throw new AppError('not_found');
      publisher.toUser(userId, 'session:updated', { kind: 'renamed', session });
      return session;
    },

    /**
     * Titles the session from its first user message (SPEC.md C-12). Asked for explicitly, so it
     * replaces any title; without a user message yet, nothing is stored and the current title (or
     * "New conversation") is answered.
     */
    async autoTitle(userId: string, sessionId: string, language: Language): Promise<string> {
      const state = await ownState(userId, sessionId);
      const first = await firstUserMessage(userId, sessionId);
      if (!first)
        return state.session.title ?? (language === 'es' ? 'Nueva conversación' : 'New conversation');
      const title = autoTitle(first.content, first.language ?? language, state.context?.userName ?? null);
      const session = await sessions.update(userId, sessionId, { title, titleSource: 'auto' });
      if (!session) throw new AppError('not_found');
      publisher.toUser(userId, 'session:updated', { kind: 'renamed', session });
      return title;
    },

    async context(userId: string, sessionId: string): Promise<SessionContext> {
      const state = await ownState(userId, sessionId);
      return toSessionContext(sessionId, state.context, state.session.dominantEmotion);
    },

    /** Everything needed to replay the conversation (SPEC.md C-13). */
    async export(userId: string, sessionId: string): Promise<ChatExport> {
      const state = await ownState(userId, sessionId);
      const all = await messages.all(userId, sessionId);
      return {
        format: 'alma.chat-export',
        version: 1,
        exportedAt: now(),
        session: state.session,
        context: toSessionContext(sessionId, state.context, state.session.dominantEmotion),
        messages: all.map((m) => ({
          ...MessageSchema.parse(m),
          animationIntent:
            m.role === 'assistant' ? animationIntentOf(m.emotion ?? 'neutral', m.gesture) : null,
          voiceId: m.voiceId,
          avatarId: m.avatarId,
        })),
      };
    },

    /**
     * Stores the session's personality and adds a system message confirming it in `language`,
     * sent as `chat:message` to the session's sockets (SPEC.md C-14).
     */
    async changePersonality(
      userId: string,
      sessionId: string,
      personality: Personality,
      language: Language,
    ): Promise<Message> {
      const at = now();
      if (!(await sessions.update(userId, sessionId, { personality, updatedAt: at }))) {
        throw new AppError('not_found', { detail: `session ${sessionId}` });
      }
      const { message } = await messages.insert({
        _id: deps.newId(),
        sessionId,
        userId,
        role: 'system',
        content: personalityChangedText(language, personality),
        createdAt: at,
        clientMessageId: null,
        replyTo: null,
        emotion: null,
        emotionAnalysis: null,
        language,
        userLanguage: language,
        personality,
        audioUrl: null,
        isComplete: true,
      });
      publisher.toSession(sessionId, 'chat:message', { message });
      return message;
    },

    /** Deletes the session and its messages; its replies in flight stop (C-15: `not_found`). */
    async delete(userId: string, sessionId: string): Promise<void> {
      await replies.stopSession(userId, sessionId);
      if (!(await sessions.delete(userId, sessionId))) throw new AppError('not_found');
      publisher.toUser(userId, 'session:updated', { kind: 'deleted', sessionId });
    },

    async messages(userId: string, sessionId: string, page: number, pageSize: number): Promise<MessagesPage> {
      await own(userId, sessionId);
      const result = await messages.page(userId, sessionId, page, pageSize);
      return { ...result, page, pageSize, hasMore: page * pageSize < result.total };
    },

    /**
     * After a stored reply: the session's emotion scores, context and (first exchange) title,
     * updated under the session's lock from what is stored now (SPEC.md C-11, C-12).
     */
    recordExchange(
      userId: string,
      userMessage: Message,
      reply: Message,
      analysis: EmotionAnalysis,
      /** How the session's write waits (WriteOptions): by default until it is on disk. */
      options?: WriteOptions,
    ): Promise<RecordedExchange | null> {
      const { sessionId } = userMessage;
      return replies.withSessionLock(sessionId, async () => {
        const state = await sessions.state(userId, sessionId);
        if (!state) return null;
        const { scores, dominant } = scoreEmotion(state.emotionScores, analysis.emotion, analysis.intensity);
        const language = userMessage.language ?? reply.language ?? DEFAULT_LANGUAGE;
        const context = updateContext(state.context, {
          userText: userMessage.content,
          language,
          dominantEmotion: dominant,
        });
        const untitled = state.session.title === null && state.titleSource === null;
        const title = untitled ? autoTitle(userMessage.content, language, context.userName) : null;
        const session = await sessions.update(
          userId,
          sessionId,
          {
            updatedAt: now(),
            context,
            emotionScores: scores,
            dominantEmotion: dominant,
            ...(title ? { title, titleSource: 'auto' as const } : {}),
          },
          options,
        );
        return session ? { session, context, dominant, renamed: title !== null } : null;
      });
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
