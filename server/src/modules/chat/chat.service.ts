import {
  ANIMATION_INTENT_DURATION_MS,
  DEFAULT_LANGUAGE,
  errorMessage,
  isCustomVoiceId,
  MOOD_BY_EMOTION,
  RETRYABLE_CODES,
  type AnimationIntent,
  type ChatExport,
  type ChatReply,
  type ChatSession,
  type Emotion,
  type EmotionAnalysis,
  type ErrorCode,
  type Gesture,
  type Language,
  type Message,
  type MessagesPage,
  type Personality,
  type ServerEventName,
  type ServerPayload,
  type SessionContext,
} from '@alma/protocol';
import { analyzeEmotion } from '../../engines/analysis/emotion.ts';
import { detectLanguage } from '../../engines/analysis/language.ts';
import type { ReplyContext, ReplyEngine } from '../../engines/reply/types.ts';
import type { SpeechSynthesizer } from '../../engines/speech/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import { pickMessage } from '../../storage/shared.ts';
import type { MessageRepository, SessionRepository, SessionState } from '../../storage/types.ts';
import { autoTitle } from './auto-title.ts';
import { personalityChangedText } from './personalities.ts';
import {
  createReplySpeech,
  heardPart,
  joinPcm,
  resolveCustomVoice,
  resolveVoice,
  type CustomVoiceSpeaker,
  type ReplySpeech,
} from './reply-speech.ts';
import { scoreEmotion, toSessionContext, updateContext } from './session-context.ts';

/**
 * How many earlier messages the engine sees: twenty exchanges, so the builtin engine never
 * repeats a sentence within twenty turns. Older ones live on in the stored context (C-11).
 */
const HISTORY_WINDOW = 40;
/** How often a streaming reply's row is rewritten with the text so far (SPEC.md C-5). */
export const REPLY_FLUSH_MS = 500;

/** Why a reply was stopped before its end; the abort reason of its controller. */
type StopReason = 'cancel' | 'shutdown' | 'deleted';

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
  /** Overrides REPLY_FLUSH_MS (tests: 0 rewrites the row on every delta). */
  replyFlushMs?: number;
  /** Null or absent: replies are text only (SPEECH_ENGINE=none; SPEC.md S-1). */
  speech?: SpeechSynthesizer | null;
  /** The voice a user chose as default (preferences.defaultVoiceId), for sends that name none (V-7). */
  defaultVoiceId?: (userId: string) => Promise<string | null>;
  /** One of the user's custom voices by id, or null (SPEC.md VU-8). */
  customVoice?: (userId: string, voiceId: string) => Promise<CustomVoiceSpeaker | null>;
  /** Where a reply's whole audio is stored as `<replyId>.<ext>` (SPEC.md S-4). */
  audioFiles?: BlobStore;
}

/** What a stop carries besides its reason: how far the listener had heard (SPEC.md S-2). */
interface StopInfo {
  heardUntilMs?: number | undefined;
}

/** What a send carried besides its text; stored on the user message and its reply (C-13). */
export interface ReplyOptions {
  personality: Personality;
  voiceId?: string | undefined;
  avatarId?: string | undefined;
  /** Set by ensureReply when `voiceId` is one of the user's custom voices (VU-8); never stored. */
  customVoice?: CustomVoiceSpeaker | undefined;
}

export interface SendInput {
  clientMessageId?: string | undefined;
  sessionId?: string | undefined;
  message: string;
  personality?: Personality | undefined;
  voiceId?: string | undefined;
  avatarId?: string | undefined;
  /** The socket that sent it: it already has the message, other tabs get `chat:message`. */
  originSocketId?: string | undefined;
  /** A voice note's stored audio (`/audio/<file>`); the message is its transcript (SPEC.md V-4). */
  audioUrl?: string | undefined;
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
  stop: StopInfo;
  handle: ReplyHandle;
}

/** The animation intent a reply was played with, from its emotion and gesture (spec §3). */
export function animationIntentOf(emotion: Emotion, gesture: Gesture | null): AnimationIntent {
  return {
    shouldAnimate: gesture !== null || emotion !== 'neutral',
    gesture,
    emotion,
    context: { duration: ANIMATION_INTENT_DURATION_MS },
  };
}

function engineContext(state: SessionState): ReplyContext | undefined {
  if (!state.context) return undefined;
  const { summary, topics, names, keyPoints } = state.context;
  return { summary, topics, names, keyPoints, dominantEmotion: state.session.dominantEmotion };
}

export function createChatService(deps: ChatServiceDeps) {
  const { sessions, messages, engine, publisher, quota, clock } = deps;
  const flushMs = deps.replyFlushMs ?? REPLY_FLUSH_MS;
  const inFlight = new Map<string, InFlight>(); // by replyId
  const replyByUserMessage = new Map<string, string>(); // userMessageId → replyId
  const sessionLocks = new Map<string, Promise<unknown>>();
  let accepting = true;

  const now = () => clock().toISOString();

  /** Runs `task` after the session's earlier tasks: context updates are read-modify-write. */
  function locked<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const run = (sessionLocks.get(sessionId) ?? Promise.resolve()).then(task);
    const tail = run.catch(() => undefined);
    sessionLocks.set(sessionId, tail);
    void tail.then(() => {
      if (sessionLocks.get(sessionId) === tail) sessionLocks.delete(sessionId);
    });
    return run;
  }

  async function ownSession(userId: string, sessionId: string): Promise<ChatSession> {
    const session = await sessions.find(userId, sessionId);
    if (!session) throw new AppError('not_found', { detail: `session ${sessionId}` });
    return session;
  }

  async function ownState(userId: string, sessionId: string): Promise<SessionState> {
    const state = await sessions.state(userId, sessionId);
    if (!state) throw new AppError('not_found', { detail: `session ${sessionId}` });
    return state;
  }

  async function createSession(
    userId: string,
    title: string | null,
    personality: Personality,
  ): Promise<ChatSession> {
    const at = now();
    const titled = title !== null && title.length > 0;
    const session = await sessions.create({
      sessionId: deps.newId(),
      userId,
      title: titled ? title : null,
      titleSource: titled ? 'user' : null,
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
    sessionContext: SessionContext,
  ): ChatReply {
    const language = message.language ?? DEFAULT_LANGUAGE;
    const analysis = message.emotionAnalysis ?? { emotion: 'neutral', intensity: 0, confidence: 0 };
    const emotion = analysis.emotion;
    return {
      reply: message.content,
      emotion,
      emotionalState: { emotion, intensity: analysis.intensity, mood: MOOD_BY_EMOTION[emotion] },
      animationIntent: animationIntentOf(emotion, gesture),
      language,
      userLanguage: userMessage.language ?? language,
      audioUrl: message.audioUrl,
      emotionAnalysis: analysis,
      personality: message.personality ?? 'default',
      sessionContext,
      sessionId: message.sessionId,
      messageId: message._id,
      userMessageId: userMessage._id,
      isComplete: message.isComplete,
    };
  }

  /**
   * After a stored reply: the session's emotion scores, context and (first exchange) title,
   * updated under the session's lock from what is stored now (SPEC.md C-11, C-12).
   */
  function recordExchange(userId: string, userMessage: Message, reply: Message, analysis: EmotionAnalysis) {
    const { sessionId } = userMessage;
    return locked(sessionId, async () => {
      const state = await sessions.state(userId, sessionId);
      if (!state) return null;
      const { scores, dominant } = scoreEmotion(state.emotionScores, analysis.emotion, analysis.intensity);
      const context = updateContext(state.context, {
        userText: userMessage.content,
        language: userMessage.language ?? reply.language ?? DEFAULT_LANGUAGE,
        dominantEmotion: dominant,
      });
      const untitled = state.session.title === null && state.titleSource === null;
      const title = untitled
        ? autoTitle(userMessage.content, userMessage.language ?? DEFAULT_LANGUAGE, context.userName)
        : null;
      const session = await sessions.update(userId, sessionId, {
        updatedAt: now(),
        context,
        emotionScores: scores,
        dominantEmotion: dominant,
        ...(title ? { title, titleSource: 'auto' as const } : {}),
      });
      return session ? { session, context, dominant, renamed: title !== null } : null;
    });
  }

  /**
   * Joins the reply's spoken chunks (cut at `untilMs`) into one file, `<replyId>.<ext>` in the
   * audio store, and answers its URL; null when nothing was spoken or storing failed — the text
   * reply is kept either way (SPEC.md S-3, S-4).
   */
  async function storeAudio(replyId: string, speech: ReplySpeech, untilMs?: number): Promise<string | null> {
    const synthesizer = deps.speech;
    const store = deps.audioFiles;
    const joined = joinPcm(speech.spoken, untilMs);
    if (!synthesizer || !store || !joined || joined.pcm.length === 0) return null;
    try {
      const file = await synthesizer.encodeFile(joined.pcm, joined.sampleRate);
      const name = `${replyId}.${file.extension}`;
      await store.put(name, file.data);
      return `/audio/${name}`;
    } catch (error) {
      deps.log.error({ err: error, replyId }, 'storing the reply audio failed');
      return null;
    }
  }

  /**
   * Streams, stores and publishes one reply (ARCHITECTURE §3; SPEC.md C-4, C-5). The reply's row
   * is stored when generation starts (empty, incomplete) and rewritten at most every `flushMs`
   * while it streams, so a crash leaves what was flushed, marked incomplete — never nothing.
   */
  async function runReply(
    userId: string,
    userMessage: Message,
    options: ReplyOptions,
    replyId: string,
    signal: AbortSignal,
    stop: StopInfo = {},
  ): Promise<ReplyOutcome> {
    const { sessionId } = userMessage;
    const { personality } = options;
    // Start on the next turn of the event loop, so the caller's ack leaves before `chat:typing` (C-1).
    await new Promise((resolve) => setImmediate(resolve));
    let seq = 0;
    let ended = false;
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
    const language = userMessage.language ?? DEFAULT_LANGUAGE;
    /** The one `chat:error` that ends a failed reply; `retryable` follows RETRYABLE_CODES (E-1). */
    const fail = (code: ErrorCode): ReplyOutcome => {
      if (!ended) {
        ended = true;
        emit('chat:error', {
          code,
          message: errorMessage(language, code),
          retryable: RETRYABLE_CODES.has(code),
        });
      }
      return { kind: 'failed', code };
    };
    let stored = false;
    /** A reply that ends with nothing to keep leaves no row (C-7). */
    const discard = async () => {
      if (stored) await messages.delete(userId, replyId).catch(() => false);
    };

    emit('chat:typing', { typing: true });
    let text = '';
    let analysis: EmotionAnalysis | null = null;
    let gesture: Gesture | null = null;
    // Speech (S-1): gestures wait for the chunk being written, to start with its audio (atMs).
    const pendingIntents: { gesture: Gesture; emotion: Emotion; chunkIndex: number }[] = [];
    const emitIntents = (upTo: number, atMs: number) => {
      while (pendingIntents.length > 0 && (pendingIntents[0]?.chunkIndex ?? 0) <= upTo) {
        const intent = pendingIntents.shift();
        if (!intent) break;
        emit('avatar:intent', {
          gesture: intent.gesture,
          emotion: intent.emotion,
          shouldAnimate: true,
          duration: ANIMATION_INTENT_DURATION_MS,
          atMs,
        });
      }
    };
    const speech: ReplySpeech | null = deps.speech
      ? createReplySpeech({
          synthesizer: deps.speech,
          language,
          voice: options.customVoice
            ? resolveCustomVoice(options.customVoice, language)
            : resolveVoice(options.voiceId, language),
          signal,
          log: deps.log,
          replyId,
          onChunk: (chunk) => {
            emitIntents(chunk.index, chunk.startMs);
            const { result } = chunk;
            emit('speech:chunk', {
              text: chunk.text.trim(),
              mimeType: result.mimeType,
              audio: result.audio,
              durationMs: result.durationMs,
              visemes: result.visemes,
              words: result.words,
            });
          },
        })
      : null;
    try {
      // Read before the reply's own row exists; rows of replies still streaming carry no text yet.
      const history = (await messages.recent(userId, sessionId, HISTORY_WINDOW + 1)).filter(
        (m) => m._id !== userMessage._id && !(m.role === 'assistant' && m.content === ''),
      );
      const state = await sessions.state(userId, sessionId);
      if (!state) return fail('not_found');
      await messages.insert({
        _id: replyId,
        sessionId,
        userId,
        role: 'assistant',
        content: '',
        createdAt: now(),
        clientMessageId: null,
        replyTo: userMessage._id,
        emotion: null,
        emotionAnalysis: null,
        language,
        userLanguage: userMessage.language,
        personality,
        audioUrl: null,
        isComplete: false,
        gesture: null,
        voiceId: options.voiceId ?? null,
        avatarId: options.avatarId ?? null,
      });
      stored = true;

      const partial = () => ({
        content: text,
        isComplete: false,
        emotion: analysis?.emotion ?? null,
        emotionAnalysis: analysis,
        gesture,
      });
      let flushedAt = performance.now();
      let flushedLength = 0;
      try {
        const stream = engine.stream({
          text: userMessage.content,
          language,
          personality,
          history,
          context: engineContext(state),
          signal,
        });
        for await (const chunk of stream) {
          if (signal.aborted) break;
          switch (chunk.type) {
            case 'text':
              text += chunk.text;
              emit('chat:delta', { text: chunk.text });
              speech?.push(chunk.text);
              if (performance.now() - flushedAt >= flushMs && text.length > flushedLength) {
                await messages.updateReply(userId, replyId, partial());
                flushedAt = performance.now();
                flushedLength = text.length;
              }
              break;
            case 'emotion':
              analysis = { emotion: chunk.emotion, intensity: chunk.intensity, confidence: chunk.confidence };
              emit('chat:emotion', { ...analysis, mood: MOOD_BY_EMOTION[chunk.emotion] });
              break;
            case 'gesture':
              gesture = chunk.gesture;
              if (speech && !speech.failed) {
                pendingIntents.push({
                  gesture,
                  emotion: analysis?.emotion ?? 'neutral',
                  chunkIndex: speech.nextIndex,
                });
                break;
              }
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
          await speech?.settled();
          await discard();
          return fail('reply_failed');
        }
      }
      // The rest of the text is spoken; after a stop nothing more is emitted (S-2).
      if (speech) {
        if (signal.aborted) await speech.settled();
        else await speech.finish();
      }
      emitIntents(Number.POSITIVE_INFINITY, speech?.timelineMs ?? 0);

      const stopped = signal.aborted ? ((signal.reason as StopReason | undefined) ?? 'cancel') : null;
      // Barge-in (S-2): the stored reply keeps what was heard of what was spoken.
      let audioUntilMs: number | undefined;
      if (stopped === 'cancel' && speech && speech.spoken.length > 0 && stop.heardUntilMs !== undefined) {
        const heard = heardPart(speech.spoken, stop.heardUntilMs);
        text = heard.text;
        audioUntilMs = heard.untilMs;
      }
      // Deleted with its session: there is no row left to keep anything in.
      if (stopped === 'deleted') return fail('not_found');
      if (stopped && text.trim().length === 0) {
        await discard();
        return fail(stopped === 'shutdown' ? 'shutting_down' : 'cancelled');
      }
      const emotionAnalysis = analysis ?? analyzeEmotion(text, language);
      const audioUrl = speech && !speech.failed ? await storeAudio(replyId, speech, audioUntilMs) : null;
      const message = await messages.updateReply(userId, replyId, {
        content: text,
        isComplete: stopped === null,
        emotion: emotionAnalysis.emotion,
        emotionAnalysis,
        gesture,
        audioUrl,
      });
      if (!message) return fail('not_found');
      const recorded = await recordExchange(userId, userMessage, message, emotionAnalysis);
      const sessionContext = recorded
        ? toSessionContext(sessionId, recorded.context, recorded.dominant)
        : toSessionContext(sessionId, state.context, state.session.dominantEmotion);
      const reply = chatReplyFrom(message, userMessage, gesture, sessionContext);
      ended = true;
      emit('chat:reply', { clientMessageId: userMessage.clientMessageId, message, reply });
      if (recorded?.renamed) {
        publisher.toUser(userId, 'session:updated', { kind: 'renamed', session: recorded.session });
      }
      return { kind: 'stored', reply, message };
    } catch (error) {
      // A store failing mid-reply: say so (retryable) rather than leave the client waiting.
      deps.log.error({ err: error, replyId }, 'reply failed');
      await speech?.settled();
      await discard();
      return fail('reply_failed');
    }
  }

  async function firstUserMessage(userId: string, sessionId: string): Promise<Message | null> {
    const all = await messages.all(userId, sessionId);
    const first = all.find((m) => m.role === 'user');
    return first ? pickMessage(first) : null;
  }

  async function deleteSession(userId: string, sessionId: string): Promise<void> {
    for (const flight of inFlight.values()) {
      if (flight.userId === userId && flight.sessionId === sessionId) flight.controller.abort('deleted');
    }
    if (!(await sessions.delete(userId, sessionId))) throw new AppError('not_found');
    publisher.toUser(userId, 'session:updated', { kind: 'deleted', sessionId });
  }

  return {
    listSessions: (userId: string) => sessions.list(userId),

    createSession: (userId: string, title?: string) => createSession(userId, title ?? null, 'default'),

    async renameSession(userId: string, sessionId: string, title: string): Promise<ChatSession> {
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

    async sessionContext(userId: string, sessionId: string): Promise<SessionContext> {
      const state = await ownState(userId, sessionId);
      return toSessionContext(sessionId, state.context, state.session.dominantEmotion);
    },

    /** Everything needed to replay the conversation (SPEC.md C-13). */
    async exportSession(userId: string, sessionId: string): Promise<ChatExport> {
      const state = await ownState(userId, sessionId);
      const all = await messages.all(userId, sessionId);
      return {
        format: 'alma.chat-export',
        version: 1,
        exportedAt: now(),
        session: state.session,
        context: toSessionContext(sessionId, state.context, state.session.dominantEmotion),
        messages: all.map((m) => ({
          ...pickMessage(m),
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

    deleteSession,

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
        audioUrl: input.audioUrl ?? null,
        isComplete: true,
        voiceId: input.voiceId ?? null,
        avatarId: input.avatarId ?? null,
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
     * The reply to a stored user message: the one in flight, the complete one stored before (a
     * retried send), or a new one — which replaces an incomplete reply left by a crash or a
     * stop (SPEC.md C-2). Never two replies for one message.
     */
    async ensureReply(userId: string, userMessage: Message, options: ReplyOptions): Promise<ReplyHandle> {
      const flyingId = replyByUserMessage.get(userMessage._id);
      const flying = flyingId ? inFlight.get(flyingId) : undefined;
      if (flying) return flying.handle;
      const stored = await messages.findReplyTo(userId, userMessage._id);
      if (stored?.isComplete) {
        const state = await sessions.state(userId, stored.sessionId);
        const context = toSessionContext(
          stored.sessionId,
          state?.context ?? null,
          state?.session.dominantEmotion ?? null,
        );
        const reply = chatReplyFrom(stored, userMessage, null, context);
        return {
          replyId: stored._id,
          alreadyStored: true,
          done: Promise.resolve({ kind: 'stored', reply, message: stored }),
        };
      }
      if (!accepting) throw new AppError('shutting_down');
      if (options.voiceId === undefined && deps.speech && deps.defaultVoiceId) {
        const chosen = await deps.defaultVoiceId(userId);
        if (chosen) options = { ...options, voiceId: chosen };
      }
      if (options.voiceId && deps.speech && deps.customVoice && isCustomVoiceId(options.voiceId)) {
        const custom = await deps.customVoice(userId, options.voiceId);
        if (custom) options = { ...options, customVoice: custom };
      }
      // Not in flight here, so interrupted (a crash, a stop): answered anew in its place.
      if (stored) await messages.delete(userId, stored._id);
      const replyId = deps.newId();
      const controller = new AbortController();
      const stop: StopInfo = {};
      const handle: ReplyHandle = {
        replyId,
        alreadyStored: false,
        done: runReply(userId, userMessage, options, replyId, controller.signal, stop).finally(() => {
          inFlight.delete(replyId);
          replyByUserMessage.delete(userMessage._id);
        }),
      };
      inFlight.set(replyId, {
        userId,
        sessionId: userMessage.sessionId,
        userMessageId: userMessage._id,
        controller,
        stop,
        handle,
      });
      replyByUserMessage.set(userMessage._id, replyId);
      return handle;
    },

    /**
     * Stops a reply of this user's; what was produced is kept, marked incomplete (SPEC.md C-7) —
     * of a spoken reply, what was heard before `heardUntilMs` (S-2).
     */
    async cancel(userId: string, replyId: string, heardUntilMs?: number): Promise<boolean> {
      const flight = inFlight.get(replyId);
      if (!flight || flight.userId !== userId) return false;
      if (!flight.controller.signal.aborted) flight.stop.heardUntilMs = heardUntilMs;
      flight.controller.abort('cancel' satisfies StopReason);
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
        for (const flight of inFlight.values()) flight.controller.abort('shutdown' satisfies StopReason);
        await all();
      }
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
