import {
  DEFAULT_LANGUAGE,
  isCustomVoiceId,
  type ChatSession,
  type Language,
  type Message,
  type Personality,
  type ServerPayload,
} from '@alma/protocol';
import { languageSignal } from '../../engines/analysis/language.ts';
import type { ReplyEngine } from '../../engines/reply/types.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type {
  MessageRepository,
  NewMessage,
  SendRepository,
  SendWrite,
  SessionRepository,
  UsageRecord,
  WriteOptions,
} from '../../storage/types.ts';
import { storedReplyOutcome } from './chat-reply.ts';
import type { ReplyRegistry } from './reply-registry.ts';
import {
  prepareReply,
  recentForReply,
  REPLY_FLUSH_MS,
  ReplyRun,
  replyRow,
  type PreparedReply,
  type ReplyContext,
  type ReplyRunDeps,
} from './reply-run.ts';
import type { CustomVoiceSpeaker } from './reply-speech.ts';
import type { ReplyHandle, ReplyOptions, ReplyOutcome } from './reply-types.ts';
import type { SessionsService } from './sessions.service.ts';
import type { SpeechPipeline } from './speech-pipeline.ts';

/**
 * A new message's count against the month (SPEC.md L-3), read before anything is written: where
 * and up to what the message's own write counts it, and what to tell the user either way.
 */
export type QuotaTicket =
  | {
      open: true;
      count: SendWrite['count'];
      /** `usage:updated` once the write counted it. */
      counted(usage: UsageRecord): ServerPayload<'usage:updated'>;
      /** `limit:reached` when the write found the month full after all (a concurrent send). */
      refused(usage: UsageRecord): ServerPayload<'limit:reached'>;
    }
  | { open: false; reached: ServerPayload<'limit:reached'> };

/** The monthly message limit (SPEC.md L-3), kept outside the chat: the plans module implements it. */
export interface MessageQuota {
  ticket(userId: string): Promise<QuotaTicket>;
}

/** One user message, whichever edge it came through: socket, REST, or a voice note's transcript. */
export interface SubmitInput {
  clientMessageId?: string | undefined;
  sessionId?: string | undefined;
  message: string;
  /** This reply's personality; absent: the session's (C-14). Never changes the session's. */
  personality?: Personality | undefined;
  voiceId?: string | undefined;
  avatarId?: string | undefined;
  /** A voice note's stored audio (`/audio/<file>`); the message is its transcript (SPEC.md V-4). */
  audioUrl?: string | undefined;
}

/** The user message as stored (or found stored: a retried send, C-2). */
export interface StoredSend {
  message: Message;
  session: ChatSession;
  duplicate: boolean;
}

/** A new message as stored, with its reply's row (the reply to start: `ensureReply`). */
interface StoredNew extends StoredSend {
  row?: NewReply;
}

/** A new message's reply, its row stored with the message and its engine asked already. */
interface NewReply {
  replyId: string;
  options: ReplyOptions;
  prepared: { reply: Promise<PreparedReply>; controller: AbortController };
  /** Called once its run is registered, or will not be: duplicates of the message stop waiting. */
  settled?: () => void;
}

export interface Submitted extends StoredSend {
  reply: ReplyHandle;
}

export interface SubmitOptions {
  /** The socket that sent it: it already has the message, other tabs get `chat:message` (C-9). */
  originSocketId?: string | undefined;
  /**
   * Runs once the message is stored, before its reply starts: the sender joins the session's
   * room (every reply event reaches it, C-4); a voice note counts its minutes (V-5).
   */
  onStored?: ((stored: StoredSend) => Promise<void>) | undefined;
  /**
   * Resolves once the edge's acknowledgement of the message has left: nothing of the reply
   * leaves before it (C-1). Absent: the reply starts on the event loop's next turn.
   */
  acked?: Promise<void> | undefined;
}

export interface SubmitServiceDeps {
  sessions: SessionRepository;
  messages: MessageRepository;
  /** A message's one write: its count, its new session, itself and its reply's row (issue 14). */
  sends: SendRepository;
  /** The store's `synced` (Storage.synced): the user message is durable before it is acknowledged. */
  synced: () => Promise<void>;
  /** The store's `readTogether`: a send's reads share one snapshot (absent: each on its own). */
  readTogether?: <T>(reads: () => T) => T;
  chatSessions: Pick<SessionsService, 'own' | 'ownState' | 'draft' | 'announceCreated' | 'recordExchange'>;
  replies: ReplyRegistry;
  engine: ReplyEngine;
  publisher: Publisher;
  quota: MessageQuota;
  newId: IdGenerator;
  clock: Clock;
  log: Log;
  /** Overrides REPLY_FLUSH_MS (tests: 0 rewrites the row on every delta). */
  replyFlushMs?: number;
  /** Null or absent: replies are text only (SPEECH_ENGINE=none; SPEC.md S-1). */
  speech?: SpeechPipeline | null;
  /** The voice a user chose as default (preferences.defaultVoiceId), for sends that name none (V-7). */
  defaultVoiceId?: (userId: string) => Promise<string | null>;
  /**
   * The language the user chose (User.language), for a line that gives no signal in a session
   * with no earlier user message (SPEC.md C-18); absent or null: Spanish.
   */
  preferredLanguage?: (userId: string) => Promise<Language | null>;
  /** One of the user's custom voices by id, or null (SPEC.md VU-8). */
  customVoice?: (userId: string, voiceId: string) => Promise<CustomVoiceSpeaker | null>;
}

/**
 * The one way a message enters the chat (ARCHITECTURE §3 steps 1–2): stored under the monthly
 * limit and acknowledged, then answered by exactly one reply (SPEC.md C-1…C-3, C-9, L-3). Every
 * edge calls `submit` — `chat:send`, `POST /message`, and a voice note once transcribed.
 */
/**
 * Resolves in a turn of the event loop of its own: what the caller does next runs to its first
 * real wait before anyone else's next step (issue 14). Sends whose writes became durable together
 * would otherwise take their remaining steps — announce, ack, the reply's start and its first
 * delta — in lockstep, every send's next step before any send's step after it (the microtask
 * queue), so every reply's first delta would leave only once all the sends had been acknowledged.
 */
const ownTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createSubmitService(deps: SubmitServiceDeps) {
  const { sessions, messages, chatSessions, replies, publisher, quota } = deps;
  const readTogether: <T>(reads: () => T) => T = deps.readTogether ?? ((reads) => reads());
  const runDeps: ReplyRunDeps = {
    sessions,
    messages,
    engine: deps.engine,
    publisher,
    clock: deps.clock,
    log: deps.log,
    flushMs: deps.replyFlushMs ?? REPLY_FLUSH_MS,
    speech: deps.speech ?? null,
    recordExchange: (...args) => chatSessions.recordExchange(...args),
    leaseRow: (replyId) => replies.leaseRow(replyId),
    synced: deps.synced,
  };

  /**
   * Messages stored by this process whose reply is not registered yet (`replies.start`): a
   * duplicate send arriving meanwhile (C-2) waits for it, rather than take the new row for an
   * interrupted reply's and answer anew in its place.
   */
  const registering = new Map<string, Promise<void>>();
  const starting = (messageId: string) => {
    let settle = () => {};
    registering.set(messageId, new Promise<void>((resolve) => (settle = resolve)));
    return () => {
      registering.delete(messageId);
      settle();
    };
  };

  /** How the user message's writes wait: for their commit; `deps.synced()` then for the disk. */
  const COMMITTED: WriteOptions = { synced: false };

  /** A message stored before (C-2). Its original send may have committed it and not be on disk yet: answered once it is. */
  async function stored(userId: string, message: Message): Promise<StoredSend> {
    await deps.synced();
    return { message, session: await chatSessions.own(userId, message.sessionId), duplicate: true };
  }

  /**
   * Stores the user message (C-1, C-2). A new message is counted against the monthly limit in
   * the same write (L-3): over the limit, the user's sockets get `limit:reached` and nothing is
   * stored or created.
   *
   * Everything before the write is a read, and the engine is asked before it too, so it writes
   * while the message is stored (issue 14). The write — the count, a new session, the message,
   * its reply's row and the session's touch — is one commit, then one wait for the disk, before
   * anything about it is announced or the message acknowledged: at 200 sends at once, every turn
   * of the event loop a send waits for is a turn of all 200 (one per repository before, three).
   *
   * The reads do not depend on one another, so they are asked at once (`readsFor`): on MongoDB a
   * send waits for one round trip of reads, not one per read (six before). Their answers are
   * taken in the order the send needs them — a stored duplicate, the session, the month — so a
   * send ends as it did when they were read one after another. They are asked inside the store's
   * `readTogether`: the embedded store answers them from one read transaction, not six.
   */
  async function store(userId: string, input: SubmitInput, originSocketId?: string): Promise<StoredNew> {
    if (!replies.isAccepting()) throw new AppError('shutting_down');
    const reads = readTogether(() => readsFor(userId, input));
    const existing = await reads.existing;
    if (existing) return stored(userId, existing);
    const given = await reads.given;
    const quotaTicket = await reads.quotaTicket;
    if (!quotaTicket.open) return refuse(userId, quotaTicket.reached);
    const { session, record: newSession } = given
      ? { session: given.session, record: undefined }
      : chatSessions.draft(userId, input.personality ?? 'default');
    // What the engine is asked with; a new session's is known without reading: no messages, no context.
    const context: ReplyContext = given
      ? { recent: await reads.recent, state: given }
      : { recent: [], state: { session, titleSource: null, context: null, emotionScores: {} } };
    const language: Language =
      languageSignal(input.message) ??
      context.recent.filter((m) => m.role === 'user').at(-1)?.language ??
      (await deps.preferredLanguage?.(userId)) ??
      DEFAULT_LANGUAGE;
    const createdAt = deps.clock().toISOString();
    const userMessage: NewMessage = {
      _id: deps.newId(),
      sessionId: session.sessionId,
      userId,
      role: 'user',
      content: input.message,
      createdAt,
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
    };
    // The reply's row is stored with the message (unless it is a duplicate), so the reply can
    // stream as soon as the ack has left; its engine is asked now. Nothing of the reply leaves
    // before the ack (C-1); should the reply not start after all, the engine is stopped.
    const options = await speaker(userId, replyOptions(input, session), reads.defaultVoice);
    const controller = new AbortController();
    const reply = prepareReply(runDeps, {
      userId,
      userMessage,
      personality: options.personality,
      signal: controller.signal,
      known: context,
    });
    reply.catch(() => undefined); // awaited by the run
    const row: NewReply = { replyId: deps.newId(), options, prepared: { reply, controller } };
    try {
      const written = await deps.sends.store(
        {
          message: userMessage,
          reply: replyRow({ ...row, userId, userMessage }, createdAt),
          count: quotaTicket.count,
          ...(newSession ? { newSession } : {}),
        },
        COMMITTED,
      );
      if (written.kind === 'stored') row.settled = starting(written.message._id);
      else controller.abort();
      if (written.kind === 'refused') return refuse(userId, quotaTicket.refused(written.usage));
      if (written.kind === 'no-session')
        throw new AppError('not_found', { detail: `session ${session.sessionId}` });
      if (written.kind === 'duplicate') return stored(userId, written.message);
      await deps.synced();
      await ownTurn();
      // The session's personality is left as it is: only POST /personality changes it (C-14).
      if (newSession) chatSessions.announceCreated(userId, written.session);
      publisher.toSession(
        written.session.sessionId,
        'chat:message',
        { message: written.message },
        { exceptSocketId: originSocketId },
      );
      publisher.toUser(userId, 'usage:updated', quotaTicket.counted(written.usage));
      return { message: written.message, session: written.session, duplicate: false, row };
    } catch (error) {
      controller.abort();
      row.settled?.();
      throw error;
    }
  }

  /**
   * What storing a new message reads, asked at once (see `store`). A read whose answer goes unused
   * (a duplicate found first, a session not the user's) is left to settle unobserved.
   */
  function readsFor(userId: string, input: SubmitInput) {
    const { clientMessageId, sessionId } = input;
    const reads = {
      existing: clientMessageId
        ? messages.findByClientMessageId(userId, clientMessageId)
        : Promise.resolve(null),
      given: sessionId ? chatSessions.ownState(userId, sessionId) : Promise.resolve(null),
      // Only the user's own messages are read: for someone else's session, none (and `given` fails).
      recent: sessionId ? recentForReply(messages, userId, sessionId) : Promise.resolve([]),
      quotaTicket: quota.ticket(userId),
      defaultVoice: defaultVoiceOf(userId, input.voiceId),
    };
    for (const read of Object.values(reads)) read.catch(() => undefined);
    return reads;
  }

  /** The user's default voice (V-7), if the send names none and replies are spoken; else null. */
  const defaultVoiceOf = async (userId: string, voiceId: string | undefined): Promise<string | null> =>
    deps.speech && voiceId === undefined && deps.defaultVoiceId ? deps.defaultVoiceId(userId) : null;

  /** The month is full: the user's sockets are told, and the send fails with nothing stored (L-3). */
  function refuse(userId: string, reached: ServerPayload<'limit:reached'>): never {
    publisher.toUser(userId, 'limit:reached', reached);
    throw new AppError('limit_reached', { detail: `${reached.used}/${reached.limit}` });
  }

  /** What a send asks of its reply: the send's personality, else the session's (C-14). */
  const replyOptions = (input: SubmitInput, session: ChatSession): ReplyOptions => ({
    personality: input.personality ?? session.personality,
    voiceId: input.voiceId,
    avatarId: input.avatarId,
  });

  /**
   * The voice a reply speaks with: the send's, else the user's default (V-7; `defaultVoice` when
   * already asked for); a custom one resolved (VU-8).
   */
  async function speaker(
    userId: string,
    options: ReplyOptions,
    defaultVoice = defaultVoiceOf(userId, options.voiceId),
  ): Promise<ReplyOptions> {
    if (!deps.speech) return options;
    let voiced = options;
    const chosen = await defaultVoice;
    if (voiced.voiceId === undefined && chosen) voiced = { ...voiced, voiceId: chosen };
    if (voiced.voiceId && deps.customVoice && isCustomVoiceId(voiced.voiceId)) {
      const custom = await deps.customVoice(userId, voiced.voiceId);
      if (custom) voiced = { ...voiced, customVoice: custom };
    }
    return voiced;
  }

  /**
   * The reply to a stored user message: the one in flight, the complete one stored before (a
   * retried send), or a new one — which replaces an incomplete reply left by a crash or a
   * stop (C-2). Never two replies for one message.
   */
  async function ensureReply(
    userId: string,
    sent: StoredNew,
    input: SubmitInput,
    acked: Promise<void> | undefined,
  ): Promise<ReplyHandle> {
    const { message } = sent;
    if (sent.row) return startStored(userId, message, sent.row, acked);
    // The original send may have stored it a moment ago, its reply not registered yet: its row
    // is not one a crash left.
    await registering.get(message._id);
    const flying = await replies.find(message._id);
    if (flying) return { ...flying, alreadyStored: false };
    const previous = await messages.findReplyTo(userId, message._id);
    if (previous?.isComplete) {
      const done = await storedReplyOutcome(sessions, userId, previous, message);
      return { replyId: previous._id, alreadyStored: true, done: Promise.resolve(done) };
    }
    // Unknown to Redis (it restarted empty, or is away) yet leased in the database: it still runs.
    const leased = previous ? await replies.running(previous._id) : null;
    if (leased) return { ...leased, alreadyStored: false };
    if (!replies.isAccepting()) throw new AppError('shutting_down');
    const options = await speaker(userId, replyOptions(input, sent.session));
    // Not in flight here, so interrupted (a crash, a stop): answered anew in its place.
    if (previous) await messages.delete(userId, previous._id);
    const replyId = deps.newId();
    const run = new ReplyRun(runDeps, { replyId, userId, userMessage: message, options, acked });
    const started = await replies.start(
      { replyId, userId, sessionId: message.sessionId, userMessageId: message._id },
      run,
    );
    return { replyId: started.replyId, alreadyStored: false, done: started.done };
  }

  /** A reply stored with its message whose run never started: its engine stopped, its row gone. */
  const dropReply = async (userId: string, row: NewReply) => {
    row.prepared.controller.abort();
    await messages.delete(userId, row.replyId).catch(() => false);
  };

  /**
   * Starts the reply whose row was stored with its new message. Should another reply be in
   * flight for it already (a concurrent retry found the row before this run was registered, and
   * answered anew in its place, C-2), or the server be draining, the row goes.
   */
  async function startStored(
    userId: string,
    message: Message,
    row: NewReply,
    acked: Promise<void> | undefined,
  ): Promise<ReplyHandle> {
    const { replyId, options, prepared } = row;
    const run = new ReplyRun(runDeps, {
      replyId,
      userId,
      userMessage: message,
      options,
      acked,
      rowStored: true,
      prepared,
    });
    let started;
    try {
      started = await replies.start(
        { replyId, userId, sessionId: message.sessionId, userMessageId: message._id },
        run,
      );
    } catch (error) {
      await dropReply(userId, row);
      throw error;
    }
    if (started.replyId !== replyId) await dropReply(userId, row);
    return { replyId: started.replyId, alreadyStored: false, done: started.done };
  }

  return {
    /** Stores the message, then starts (or finds) its reply; resolves when it is stored, before the reply. */
    async submit(userId: string, input: SubmitInput, options: SubmitOptions = {}): Promise<Submitted> {
      const { row, ...sent } = await store(userId, input, options.originSocketId);
      try {
        try {
          await options.onStored?.(sent);
        } catch (error) {
          if (row) await dropReply(userId, row);
          throw error;
        }
        return { ...sent, reply: await ensureReply(userId, { ...sent, row }, input, options.acked) };
      } finally {
        row?.settled?.();
      }
    },
  };
}

export type SubmitService = ReturnType<typeof createSubmitService>;

/** The reply a REST edge answers with (`POST /message`, `/message-audio`); a failed one is its error. */
export async function settledReply(handle: ReplyHandle): Promise<Extract<ReplyOutcome, { kind: 'stored' }>> {
  const outcome = await handle.done;
  if (outcome.kind === 'failed') throw new AppError(outcome.code);
  return outcome;
}
