import {
  ANIMATION_INTENT_DURATION_MS,
  DEFAULT_LANGUAGE,
  errorMessage,
  MOOD_BY_EMOTION,
  type ChatReply,
  type ChatSession,
  type EmotionAnalysis,
  type Gesture,
  type Language,
  type Message,
  type MessagesPage,
  type Personality,
  type ServerEventName,
  type ServerPayload,
} from '@alma/protocol';
import { analyzeEmotion } from '../../engines/analysis/emotion.ts';
import { detectLanguage } from '../../engines/analysis/language.ts';
import type { ReplyEngine } from '../../engines/reply/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { MessageRepository, SessionRepository } from '../../storage/types.ts';
import { deriveSessionContext } from './session-context.ts';

/** How many earlier messages the engine sees, and the context is derived from. */
const HISTORY_WINDOW = 30;

export type QuotaResult =
  | { counted: true; usage: ServerPayload<'usage:updated'> }
  | { counted: false; reached: ServerPayload<'limit:reached'> };

/** The monthly message limit (SPEC.md L-3), kept outside the chat: the plans module implements it. */
export interface MessageQuota {
  /** Counts one message for the user unless the plan's cap for this month is reached. */
  tryCount(userId: string): Promise<QuotaResult>;
}

export interface ChatServiceDeps {
  sessions: SessionRepository;
  messages: MessageRepository;
  engine: ReplyEngine;
  publisher: Publisher;
  quota: MessageQuota;
  newId: IdGenerator;
  clock: Clock;
  log: Log;
}

export interface SendInput {
  clientMessageId?: string | undefined;
  sessionId?: string | undefined;
  message: string;
  personality?: Personality | undefined;
  /** The socket that sent it: it already has the message, other tabs get `chat:message`. */
  originSocketId?: string | undefined;
}

export interface SendResult {
  message: Message;
  session: ChatSession;
  duplicate: boolean;
}

/** How a reply ended: stored (complete or not), or failed with nothing stored. */
export type ReplyOutcome =
  { kind: 'stored'; reply: ChatReply; message: Message } | { kind: 'failed'; code: AppError['code'] };

export interface ReplyHandle {
  replyId: string;
  /** True when the reply had been stored before this request (a retried send): nothing streams. */
  alreadyStored: boolean;
  done: Promise<ReplyOutcome>;
}

interface InFlight {
  userId: string;
  sessionId: string;
  userMessageId: string;
  controller: AbortController;
  handle: ReplyHandle;
}

export function createChatService(deps: ChatServiceDeps) {
  const { sessions, messages, engine, publisher, quota, clock } = deps;
  const inFlight = new Map<string, InFlight>(); // by replyId
  const replyByUserMessage = new Map<string, string>(); // userMessageId → replyId
  let accepting = true;

  const now = () => clock().toISOString();

  async function ownSession(userId: string, sessionId: string): Promise<ChatSession> {
    const session = await sessions.find(userId, sessionId);
    if (!session) throw new AppError('not_found', { detail: `session ${sessionId}` });
    return session;
  }

  async function createSession(
    userId: string,
    title: string | null,
    personality: Personality,
  ): Promise<ChatSession> {
    const at = now();
    const session = await sessions.create({
      sessionId: deps.newId(),
      userId,
      title: title && title.length > 0 ? title : null,
      personality,
      createdAt: at,
      updatedAt: at,
    });
    publisher.toUser(userId, 'session:updated', { kind: 'created', session });
    return session;
  }

  function chatReplyFrom(
    message: Message,
    userMessage: Message,
    gesture: Gesture | null,
    history: readonly Message[],
  ): ChatReply {
    const language = message.language ?? DEFAULT_LANGUAGE;
    const analysis = message.emotionAnalysis ?? { emotion: 'neutral', intensity: 0, confidence: 0 };
    const emotion = analysis.emotion;
    return {
      reply: message.content,
      emotion,
      emotionalState: { emotion, intensity: analysis.intensity, mood: MOOD_BY_EMOTION[emotion] },
      animationIntent: {
        shouldAnimate: gesture !== null || emotion !== 'neutral',
        gesture,
        emotion,
        context: { duration: ANIMATION_INTENT_DURATION_MS },
      },
      language,
      userLanguage: userMessage.language ?? language,
      audioUrl: message.audioUrl,
      emotionAnalysis: analysis,
      personality: message.personality ?? 'default',
      sessionContext: deriveSessionContext(message.sessionId, [...history, userMessage, message], language),
      sessionId: message.sessionId,
      messageId: message._id,
      userMessageId: userMessage._id,
      isComplete: message.isComplete,
    };
  }

  /** Streams, stores and publishes one reply (ARCHITECTURE §3; SPEC.md C-4, C-5). */
  async function runReply(
    userId: string,
    userMessage: Message,
    personality: Personality,
    replyId: string,
    signal: AbortSignal,
  ): Promise<ReplyOutcome> {
    const { sessionId } = userMessage;
    // Start on the next turn of the event loop, so the caller's ack leaves before `chat:typing` (C-1).
    await new Promise((resolve) => setImmediate(resolve));
    let seq = 0;
    const emit = <E extends ServerEventName>(
      event: E,
      payload: Omit<ServerPayload<E>, 'replyId' | 'sessionId' | 'seq'>,
    ) =>
      publisher.toSession(sessionId, event, {
        ...payload,
        replyId,
        sessionId,
        seq: seq++,
      } as ServerPayload<E>);

    emit('chat:typing', { typing: true });
    const language = userMessage.language ?? DEFAULT_LANGUAGE;
    let text = '';
    let analysis: EmotionAnalysis | null = null;
    let gesture: Gesture | null = null;
    let history: Message[] = [];
    try {
      history = (await messages.recent(userId, sessionId, HISTORY_WINDOW + 1)).filter(
        (m) => m._id !== userMessage._id,
      );
      const stream = engine.stream({ text: userMessage.content, language, personality, history, signal });
      for await (const chunk of stream) {
        if (signal.aborted) break;
        switch (chunk.type) {
          case 'text':
            text += chunk.text;
            emit('chat:delta', { text: chunk.text });
            break;
          case 'emotion':
            analysis = { emotion: chunk.emotion, intensity: chunk.intensity, confidence: chunk.confidence };
            emit('chat:emotion', { ...analysis, mood: MOOD_BY_EMOTION[chunk.emotion] });
            break;
          case 'gesture':
            gesture = chunk.gesture;
            emit('avatar:intent', {
              gesture,
              emotion: analysis?.emotion ?? 'neutral',
              shouldAnimate: true,
              duration: ANIMATION_INTENT_DURATION_MS,
              atMs: 0,
            });
            break;
        }
      }
    } catch (error) {
      if (!signal.aborted) {
        deps.log.error({ err: error, replyId }, 'reply engine failed');
        emit('chat:error', {
          code: 'reply_failed',
          message: errorMessage(language, 'reply_failed'),
          retryable: true,
        });
        return { kind: 'failed', code: 'reply_failed' };
      }
    }
    const isComplete = !signal.aborted;
    if (!isComplete && text.trim().length === 0) {
      emit('chat:error', {
        code: 'cancelled',
        message: errorMessage(language, 'cancelled'),
        retryable: false,
      });
      return { kind: 'failed', code: 'cancelled' };
    }
    const emotionAnalysis = analysis ?? analyzeEmotion(text, language);
    const { message } = await messages.insert({
      _id: replyId,
      sessionId,
      userId,
      role: 'assistant',
      content: text,
      createdAt: now(),
      clientMessageId: null,
      replyTo: userMessage._id,
      emotion: emotionAnalysis.emotion,
      emotionAnalysis,
      language,
      userLanguage: userMessage.language,
      personality,
      audioUrl: null,
      isComplete,
    });
    await sessions.update(userId, sessionId, { updatedAt: message.createdAt });
    const reply = chatReplyFrom(message, userMessage, gesture, history);
    emit('chat:reply', { clientMessageId: userMessage.clientMessageId, message, reply });
    return { kind: 'stored', reply, message };
  }

  return {
    listSessions: (userId: string) => sessions.list(userId),

    createSession: (userId: string, title?: string) => createSession(userId, title ?? null, 'default'),

    async renameSession(userId: string, sessionId: string, title: string): Promise<ChatSession> {
      const session = await sessions.update(userId, sessionId, { title, updatedAt: now() });
      if (!session) throw new AppError('not_found');
      publisher.toUser(userId, 'session:updated', { kind: 'renamed', session });
      return session;
    },

    async deleteSession(userId: string, sessionId: string): Promise<void> {
      for (const flight of inFlight.values()) {
        if (flight.userId === userId && flight.sessionId === sessionId) flight.controller.abort();
      }
      if (!(await sessions.delete(userId, sessionId))) throw new AppError('not_found');
      publisher.toUser(userId, 'session:updated', { kind: 'deleted', sessionId });
    },

    async listMessages(
      userId: string,
      sessionId: string,
      page: number,
      pageSize: number,
    ): Promise<MessagesPage> {
      await ownSession(userId, sessionId);
      const result = await messages.page(userId, sessionId, page, pageSize);
      return { ...result, page, pageSize, hasMore: page * pageSize < result.total };
    },

    /**
     * Stores the user message (SPEC.md C-1, C-2). The caller acks after this resolves. A new
     * message is counted against the monthly limit before anything is stored (L-3): over the
     * limit, the user's sockets get `limit:reached` and nothing is stored or created.
     */
    async send(userId: string, input: SendInput): Promise<SendResult> {
      if (!accepting) throw new AppError('shutting_down');
      if (input.clientMessageId) {
        const existing = await messages.findByClientMessageId(userId, input.clientMessageId);
        if (existing)
          return {
            message: existing,
            session: await ownSession(userId, existing.sessionId),
            duplicate: true,
          };
      }
      const given = input.sessionId ? await ownSession(userId, input.sessionId) : null;
      // Counted before the insert, so a refused message leaves no trace. Two concurrent sends
      // with one clientMessageId may both count, though only one is stored: a rare over-count
      // of one, in the user's disfavour but never past the limit.
      const counted = await quota.tryCount(userId);
      if (!counted.counted) {
        publisher.toUser(userId, 'limit:reached', counted.reached);
        throw new AppError('limit_reached', { detail: `${counted.reached.used}/${counted.reached.limit}` });
      }
      let session = given ?? (await createSession(userId, null, input.personality ?? 'default'));
      const previous = await messages.recent(userId, session.sessionId, 4);
      const lastUserLanguage = previous.filter((m) => m.role === 'user').at(-1)?.language ?? DEFAULT_LANGUAGE;
      const language: Language = detectLanguage(input.message, lastUserLanguage);
      const stored = await messages.insert({
        _id: deps.newId(),
        sessionId: session.sessionId,
        userId,
        role: 'user',
        content: input.message,
        createdAt: now(),
        clientMessageId: input.clientMessageId ?? null,
        replyTo: null,
        emotion: null,
        emotionAnalysis: null,
        language,
        userLanguage: language,
        personality: null,
        audioUrl: null,
        isComplete: true,
      });
      if (stored.duplicate) {
        return {
          message: stored.message,
          session: await ownSession(userId, stored.message.sessionId),
          duplicate: true,
        };
      }
      const personality = input.personality ?? session.personality;
      session =
        (await sessions.update(userId, session.sessionId, {
          updatedAt: stored.message.createdAt,
          personality,
        })) ?? session;
      publisher.toSession(
        session.sessionId,
        'chat:message',
        { message: stored.message },
        { exceptSocketId: input.originSocketId },
      );
      publisher.toUser(userId, 'usage:updated', counted.usage);
      return { message: stored.message, session, duplicate: false };
    },

    /**
     * The reply to a stored user message: the one in flight, the one stored before (a retried
     * send), or a new one. Never two replies for one message (SPEC.md C-2).
     */
    async ensureReply(userId: string, userMessage: Message, personality: Personality): Promise<ReplyHandle> {
      const flyingId = replyByUserMessage.get(userMessage._id);
      const flying = flyingId ? inFlight.get(flyingId) : undefined;
      if (flying) return flying.handle;
      const stored = await messages.findReplyTo(userId, userMessage._id);
      if (stored) {
        const history = (await messages.recent(userId, stored.sessionId, HISTORY_WINDOW)).filter(
          (m) => m._id !== stored._id && m._id !== userMessage._id,
        );
        const reply = chatReplyFrom(stored, userMessage, null, history);
        return {
          replyId: stored._id,
          alreadyStored: true,
          done: Promise.resolve({ kind: 'stored', reply, message: stored }),
        };
      }
      if (!accepting) throw new AppError('shutting_down');
      const replyId = deps.newId();
      const controller = new AbortController();
      const handle: ReplyHandle = {
        replyId,
        alreadyStored: false,
        done: runReply(userId, userMessage, personality, replyId, controller.signal)
          .catch((error: unknown): ReplyOutcome => {
            deps.log.error({ err: error, replyId }, 'reply failed');
            return { kind: 'failed', code: 'reply_failed' };
          })
          .finally(() => {
            inFlight.delete(replyId);
            replyByUserMessage.delete(userMessage._id);
          }),
      };
      inFlight.set(replyId, {
        userId,
        sessionId: userMessage.sessionId,
        userMessageId: userMessage._id,
        controller,
        handle,
      });
      replyByUserMessage.set(userMessage._id, replyId);
      return handle;
    },

    /** Stops a reply of this user's; what was produced is kept, marked incomplete (SPEC.md C-7). */
    async cancel(userId: string, replyId: string): Promise<boolean> {
      const flight = inFlight.get(replyId);
      if (!flight || flight.userId !== userId) return false;
      flight.controller.abort();
      await flight.handle.done;
      return true;
    },

    inFlightCount: () => inFlight.size,

    /**
     * Graceful shutdown (SPEC.md C-8): refuse new sends, let replies in flight finish for up to
     * `graceMs`, then abort the rest — they are stored as incomplete.
     */
    async drain(graceMs: number): Promise<void> {
      accepting = false;
      const all = () => Promise.all([...inFlight.values()].map((f) => f.handle.done));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
      );
      const result = await Promise.race([all().then(() => 'done' as const), timeout]);
      clearTimeout(timer);
      if (result === 'timeout') {
        for (const flight of inFlight.values()) flight.controller.abort();
        await all();
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
