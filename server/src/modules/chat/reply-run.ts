import {
  ANIMATION_INTENT_DURATION_MS,
  DEFAULT_LANGUAGE,
  MOOD_BY_EMOTION,
  ServerEvent,
  type ChatSession,
  type Emotion,
  type EmotionAnalysis,
  type ErrorCode,
  type Gesture,
  type Language,
  type Message,
} from '@alma/protocol';
import { analyzeEmotion } from '../../engines/analysis/emotion.ts';
import type { ReplyChunk, ReplyEngine } from '../../engines/reply/types.ts';
import type { Clock } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type {
  ConversationContext,
  MessageRepository,
  MessageTurn,
  NewMessage,
  SessionRepository,
  SessionState,
  WriteOptions,
} from '../../storage/types.ts';
import { chatReplyFrom, engineContext } from './chat-reply.ts';
import { createReplyEmitter, type ReplyEmitter } from './reply-emitter.ts';
import type { RunnableReply } from './reply-registry.ts';
import { heardPart, type ReplySpeech } from './reply-speech.ts';
import type { ReplyOptions, ReplyOutcome, StopReason } from './reply-types.ts';
import { toSessionContext } from './session-context.ts';
import type { SpeechPipeline } from './speech-pipeline.ts';

/**
 * How many earlier messages the engine sees: twenty exchanges, so the builtin engine never
 * repeats a sentence within twenty turns. Older ones live on in the stored context (C-11).
 */
const HISTORY_WINDOW = 40;
/** How often a streaming reply's row is rewritten with the text so far (SPEC.md C-5). */
export const REPLY_FLUSH_MS = 500;
/**
 * A write that resolves once committed, without waiting for the disk. Such a rewrite (C-5) is
 * not waited for by the stream either (issue 14): under load the wait for a sync of the store
 * reached 120 ms (the sync itself is ~1 ms: the rest is the busy event loop taking its
 * completion), and a commit waits for the event loop's next turn, 6–60 ms at 200 replies at once;
 * every streaming reply's next words were held behind either. Nothing is acknowledged on it, nor
 * is the row read back (`rewriteReply`). The row itself waits for the disk, and the last write
 * with the session's record does once `deps.synced()` resolves (`finalise`).
 */
const COMMITTED: WriteOptions = { synced: false };

/** What a stored exchange did to its session (C-11, C-12); null when the session is gone. */
export interface RecordedExchange {
  session: ChatSession;
  context: ConversationContext;
  dominant: Emotion | null;
  renamed: boolean;
}

export interface ReplyRunDeps {
  sessions: SessionRepository;
  messages: MessageRepository;
  engine: ReplyEngine;
  publisher: Publisher;
  clock: Clock;
  log: Log;
  flushMs: number;
  /** Null: replies are text only (SPEECH_ENGINE=none; SPEC.md S-1). */
  speech: SpeechPipeline | null;
  /** Called once the reply's row is stored (the registry leases it: SPEC.md M-5). */
  leaseRow?: (replyId: string) => Promise<void>;
  /** The store's `synced` (Storage.synced): the reply's last writes wait for the disk once, together. */
  synced: () => Promise<void>;
  /** Updates the session's emotion, context and title after a stored reply. */
  recordExchange(
    userId: string,
    userMessage: Message,
    reply: Message,
    analysis: EmotionAnalysis,
    options?: WriteOptions,
  ): Promise<RecordedExchange | null>;
}

export interface ReplyRunSpec {
  replyId: string;
  userId: string;
  userMessage: Message;
  options: ReplyOptions;
  /**
   * The reply's row was stored with its user message (`replyRow`, in the same write and wait for
   * the disk: issue 14); absent, the run stores it as it starts.
   */
  rowStored?: boolean;
  /**
   * Nothing of the reply leaves before this resolves: the edge's acknowledgement of the user
   * message has left (C-1). Absent: the next turn of the event loop, after the caller's.
   */
  acked?: Promise<void> | undefined;
  /** The engine asked already (`prepareReply`), with `controller`'s signal. */
  prepared?: { reply: Promise<PreparedReply>; controller: AbortController } | undefined;
}

/** The row a reply is stored in as it starts (C-5): empty and incomplete. */
export function replyRow(
  spec: Pick<ReplyRunSpec, 'replyId' | 'userId' | 'userMessage' | 'options'>,
  createdAt: string,
): NewMessage {
  const { replyId, userId, userMessage, options } = spec;
  return {
    _id: replyId,
    sessionId: userMessage.sessionId,
    userId,
    role: 'assistant',
    content: '',
    createdAt,
    clientMessageId: null,
    replyTo: userMessage._id,
    emotion: null,
    emotionAnalysis: null,
    language: userMessage.language ?? DEFAULT_LANGUAGE,
    userLanguage: userMessage.language,
    personality: options.personality,
    audioUrl: null,
    isComplete: false,
    gesture: null,
    voiceId: options.voiceId ?? null,
    avatarId: options.avatarId ?? null,
  };
}

/** An engine's stream whose first piece was asked for already: the engine is writing. */
interface Begun<T> {
  iterator: AsyncIterator<T>;
  first: Promise<IteratorResult<T>>;
}

function begin<T>(pieces: AsyncIterable<T>): Begun<T> {
  const iterator = pieces[Symbol.asyncIterator]();
  const first = iterator.next();
  first.catch(() => undefined); // awaited where the first piece is handed out
  return { iterator, first };
}

/**
 * The begun stream's pieces, the first handed out only once `ready` resolves. Should `ready`
 * reject, the engine is told to stop and the rejection is thrown where the first piece was awaited.
 */
function afterReady<T>({ iterator, first }: Begun<T>, ready: Promise<void>): AsyncIterable<T> {
  let started = false;
  return {
    [Symbol.asyncIterator]: () => ({
      // Not an async function: each piece after the first is the engine's own promise, handed on
      // without a promise around it (two more microtask turns a piece, issue 14).
      next() {
        if (started) return iterator.next();
        started = true;
        return ready.then(
          () => first,
          (error: unknown) => {
            void iterator.return?.()?.catch(() => undefined);
            throw error;
          },
        );
      },
      return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value },
    }),
  };
}

/** What the engine was asked with, and its stream begun (`prepareReply`). */
export interface PreparedReply {
  /** Null: the session is gone; the engine was not asked. */
  state: SessionState | null;
  pieces: Begun<ReplyChunk> | null;
}

/**
 * Reads what the engine needs — the session's history and context — and asks it for the reply,
 * with `signal` the run's (issue 14: the submit service does this before the user message is
 * even committed, so the engine writes while the message is stored and acknowledged). Nothing
 * of it leaves until the run hands it out, after the ack and once the row is durable (C-1, C-5);
 * the paced words that fell due meanwhile then catch up at once.
 */
export async function prepareReply(
  deps: Pick<ReplyRunDeps, 'messages' | 'sessions' | 'engine'>,
  ask: {
    userId: string;
    userMessage: Pick<Message, '_id' | 'sessionId' | 'content' | 'language'>;
    personality: ReplyOptions['personality'];
    signal: AbortSignal;
    /** Read by the caller already (a new session's: none and its record): not read again. */
    known?: ReplyContext;
  },
): Promise<PreparedReply> {
  const { userId, userMessage } = ask;
  const { recent, state } = ask.known ?? (await readReplyContext(deps, userId, userMessage.sessionId));
  if (!state) return { state, pieces: null };
  // Rows of replies still streaming (this one's too) carry no text yet: not history.
  const history = recent
    .filter((m) => m._id !== userMessage._id && !(m.role === 'assistant' && m.content === ''))
    .slice(-HISTORY_WINDOW);
  const pieces = deps.engine.stream({
    text: userMessage.content,
    language: userMessage.language ?? DEFAULT_LANGUAGE,
    personality: ask.personality,
    history,
    context: engineContext(state),
    signal: ask.signal,
  });
  return { state, pieces: begin(pieces) };
}

/** What the engine is asked with besides the message: the session's last messages and its state. */
export interface ReplyContext {
  /** The session's latest messages, oldest first (with room for a reply's row and its message). */
  recent: MessageTurn[];
  /** Null: the session is gone. */
  state: SessionState | null;
}

/** The session's messages a reply's history is taken from (`ReplyContext.recent`). */
export const recentForReply = (messages: MessageRepository, userId: string, sessionId: string) =>
  messages.recentTurns(userId, sessionId, HISTORY_WINDOW + 2);

async function readReplyContext(
  deps: Pick<ReplyRunDeps, 'messages' | 'sessions'>,
  userId: string,
  sessionId: string,
): Promise<ReplyContext> {
  return {
    recent: await recentForReply(deps.messages, userId, sessionId),
    state: await deps.sessions.state(userId, sessionId),
  };
}

/** Resolves after the event loop's I/O phase: writes flush and waiting events run. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface PendingIntent {
  gesture: Gesture;
  emotion: Emotion;
  chunkIndex: number;
}

/**
 * One reply, from `chat:typing` to `chat:reply` (ARCHITECTURE §3; SPEC.md C-4, C-5, C-7, S-1…S-3):
 * typing → stream (the engine's text, emotion and gestures; the row flushed as it grows) →
 * speech (the rest spoken, gestures placed on the speech timeline) → finalise (what is kept after
 * a stop, the audio file, the row completed, the session's context, `chat:reply`). The row is
 * stored with its user message (or as the run starts), so a crash leaves what was flushed,
 * marked incomplete.
 */
export class ReplyRun implements RunnableReply {
  private readonly controller: AbortController;
  private readonly out: ReplyEmitter;
  private readonly language: Language;
  private heardUntilMs: number | undefined;
  private speech: ReplySpeech | null = null;
  private readonly pendingIntents: PendingIntent[] = [];
  private rowStored = false;
  private text = '';
  private analysis: EmotionAnalysis | null = null;
  private gesture: Gesture | null = null;

  constructor(
    private readonly deps: ReplyRunDeps,
    private readonly spec: ReplyRunSpec,
  ) {
    this.controller = spec.prepared?.controller ?? new AbortController();
    this.out = createReplyEmitter(deps.publisher, spec.userMessage.sessionId, spec.replyId);
    this.language = spec.userMessage.language ?? DEFAULT_LANGUAGE;
  }

  stop(reason: StopReason, heardUntilMs?: number): void {
    if (this.controller.signal.aborted) return;
    this.heardUntilMs = heardUntilMs;
    this.controller.abort(reason);
  }

  async run(): Promise<ReplyOutcome> {
    try {
      return await this.steps();
    } catch (error) {
      // A store failing mid-reply: say so (retryable) rather than leave the client waiting.
      this.deps.log.error({ err: error, replyId: this.spec.replyId }, 'reply failed');
      return this.abandon('reply_failed');
    }
  }

  private async steps(): Promise<ReplyOutcome> {
    // Stored with the user message, or else written at once: its commit and sync overlap the wait
    // for the ack below. The engine starts writing while it is stored; nothing it writes leaves
    // before the row is durable (C-5).
    const row = this.spec.rowStored ? this.rowIsStored() : this.insertRow();
    row.catch(() => undefined); // awaited where the engine's first piece is
    const { userId, userMessage, options } = this.spec;
    const prepared =
      this.spec.prepared?.reply ??
      prepareReply(this.deps, {
        userId,
        userMessage,
        personality: options.personality,
        signal: this.controller.signal,
      });
    prepared.catch(() => undefined); // awaited below, after the ack
    // Nothing leaves before the caller's ack (C-1): the edge says when it has left; else the next
    // turn of the event loop.
    await (this.spec.acked ?? new Promise((resolve) => setImmediate(resolve)));
    this.out.open();
    this.speech = this.startSpeech();
    const { state, pieces } = await prepared;
    if (!state || !pieces) {
      await row.catch(() => undefined);
      return this.abandon('not_found');
    }
    if (!(await this.stream(pieces, row))) return this.abandon('reply_failed');
    // The rest of the text is spoken; after a stop nothing more is emitted (S-2).
    if (this.speech) {
      if (this.controller.signal.aborted) await this.speech.settled();
      else await this.speech.finish();
    }
    this.releaseIntents(Number.POSITIVE_INFINITY, this.speech?.timelineMs ?? 0);
    return this.finalise(state);
  }

  private startSpeech(): ReplySpeech | null {
    const pipeline = this.deps.speech;
    if (!pipeline) return null;
    return pipeline.start({
      replyId: this.spec.replyId,
      language: this.language,
      voice: this.spec.options,
      signal: this.controller.signal,
      onChunk: (chunk) => {
        this.releaseIntents(chunk.index, chunk.startMs);
        const { result } = chunk;
        this.out.emit(ServerEvent.speechChunk, {
          text: chunk.text.trim(),
          mimeType: result.mimeType,
          audio: result.audio,
          durationMs: result.durationMs,
          visemes: result.visemes,
          words: result.words,
        });
      },
    });
  }

  private async insertRow(): Promise<void> {
    await this.deps.messages.insert(replyRow(this.spec, this.deps.clock().toISOString()));
    await this.rowIsStored();
  }

  private async rowIsStored(): Promise<void> {
    this.rowStored = true;
    await this.deps.leaseRow?.(this.spec.replyId);
  }

  /**
   * The engine's stream, emitted as it comes, from when `row` is stored; false when the engine
   * failed (not stopped). A row that cannot be stored throws.
   */
  private async stream(pieces: Begun<ReplyChunk>, row: Promise<void>): Promise<boolean> {
    const { signal } = this.controller;
    const { replyId, userId } = this.spec;
    let flushedAt = performance.now();
    let flushedLength = 0;
    /** The last rewrite, not waited for: a failed one ends the reply at the next or at the end. */
    let rewrite: Promise<unknown> = Promise.resolve();
    try {
      const stream = afterReady(pieces, row);
      for await (const chunk of stream) {
        if (signal.aborted) break;
        switch (chunk.type) {
          case 'text':
            this.text += chunk.text;
            this.out.emit(ServerEvent.chatDelta, { text: chunk.text });
            this.speech?.push(chunk.text);
            if (performance.now() - flushedAt >= this.deps.flushMs && this.text.length > flushedLength) {
              await rewrite; // a flush interval ago: settled, and thrown here should it have failed
              rewrite = this.deps.messages.rewriteReply(
                userId,
                replyId,
                {
                  content: this.text,
                  isComplete: false,
                  emotion: this.analysis?.emotion ?? null,
                  emotionAnalysis: this.analysis,
                  gesture: this.gesture,
                },
                COMMITTED,
              );
              rewrite.catch(() => undefined); // awaited at the next rewrite or the end
              flushedAt = performance.now();
              flushedLength = this.text.length;
            }
            break;
          case 'emotion':
            this.analysis = {
              emotion: chunk.emotion,
              intensity: chunk.intensity,
              confidence: chunk.confidence,
            };
            this.out.emit(ServerEvent.chatEmotion, {
              ...this.analysis,
              mood: MOOD_BY_EMOTION[chunk.emotion],
            });
            break;
          case 'gesture':
            this.gestureChosen(chunk.gesture);
            break;
        }
        // Each piece leaves before the next is made (issue 14): a fast engine's pieces would
        // otherwise all queue behind one macrotask and reach the socket together at the end,
        // and nothing else — acks, pings, other replies — would run meanwhile.
        await yieldToEventLoop();
      }
      await rewrite;
    } catch (error) {
      if (!this.rowStored) throw error; // the row's own failure, not the engine's
      if (signal.aborted) return true;
      this.deps.log.error({ err: error, replyId }, 'reply engine failed');
      return false;
    }
    return true;
  }

  /** S-1: with speech, a gesture waits for the chunk being written, to start with its audio (atMs). */
  private gestureChosen(gesture: Gesture): void {
    this.gesture = gesture;
    const emotion = this.analysis?.emotion ?? 'neutral';
    if (this.speech && !this.speech.failed) {
      this.pendingIntents.push({ gesture, emotion, chunkIndex: this.speech.nextIndex });
    } else {
      this.emitIntent(gesture, emotion, 0);
    }
  }

  /** The gestures waiting for chunks up to `upTo`, placed at `atMs` on the speech timeline. */
  private releaseIntents(upTo: number, atMs: number): void {
    let next = this.pendingIntents[0];
    while (next && next.chunkIndex <= upTo) {
      this.pendingIntents.shift();
      this.emitIntent(next.gesture, next.emotion, atMs);
      next = this.pendingIntents[0];
    }
  }

  private emitIntent(gesture: Gesture, emotion: Emotion, atMs: number): void {
    this.out.emit(ServerEvent.avatarIntent, {
      gesture,
      emotion,
      shouldAnimate: true,
      duration: ANIMATION_INTENT_DURATION_MS,
      atMs,
    });
  }

  /** What is kept after a stop (C-7, S-2), the audio file (S-4), the row completed, `chat:reply`. */
  private async finalise(state: SessionState): Promise<ReplyOutcome> {
    const { replyId, userId, userMessage } = this.spec;
    const { signal } = this.controller;
    const speech = this.speech;
    const stopped = signal.aborted ? ((signal.reason as StopReason | undefined) ?? 'cancel') : null;
    // Barge-in (S-2): the stored reply keeps what was heard of what was spoken.
    let audioUntilMs: number | undefined;
    if (stopped === 'cancel' && speech && speech.spoken.length > 0 && this.heardUntilMs !== undefined) {
      const heard = heardPart(speech.spoken, this.heardUntilMs);
      this.text = heard.text;
      audioUntilMs = heard.untilMs;
    }
    // Deleted with its session: there is no row left to keep anything in.
    if (stopped === 'deleted') return this.fail('not_found');
    if (stopped && this.text.trim().length === 0) {
      return this.abandon(stopped === 'shutdown' ? 'shutting_down' : 'cancelled');
    }
    const emotionAnalysis = this.analysis ?? analyzeEmotion(this.text, this.language);
    const audioUrl =
      speech && !speech.failed && this.deps.speech
        ? await this.deps.speech.store(replyId, speech.spoken, audioUntilMs)
        : null;
    // The last write (C-5) and the session's record of the exchange (C-11) are committed one
    // after the other and wait for the disk once, together, before `chat:reply`: one sync a reply
    // instead of two (issue 14: at 200 replies ending at once, each sync held the event loop).
    const message = await this.deps.messages.updateReply(
      userId,
      replyId,
      {
        content: this.text,
        isComplete: stopped === null,
        emotion: emotionAnalysis.emotion,
        emotionAnalysis,
        gesture: this.gesture,
        audioUrl,
      },
      COMMITTED,
    );
    if (!message) return this.fail('not_found');
    const recorded = await this.deps.recordExchange(userId, userMessage, message, emotionAnalysis, COMMITTED);
    await this.deps.synced();
    const sessionContext = recorded
      ? toSessionContext(userMessage.sessionId, recorded.context, recorded.dominant)
      : toSessionContext(userMessage.sessionId, state.context, state.session.dominantEmotion);
    const reply = chatReplyFrom(message, userMessage, this.gesture, sessionContext);
    const speechStatus = speech?.status;
    this.out.reply({
      clientMessageId: userMessage.clientMessageId,
      message,
      reply,
      ...(speechStatus ? { speech: speechStatus } : {}),
    });
    if (recorded?.renamed) {
      this.deps.publisher.toUser(userId, 'session:updated', { kind: 'renamed', session: recorded.session });
    }
    return { kind: 'stored', reply, message };
  }

  /** Ends with `code` and leaves no row: a reply with nothing to keep (C-5, C-7). */
  private async abandon(code: ErrorCode): Promise<ReplyOutcome> {
    await this.speech?.settled();
    if (this.rowStored)
      await this.deps.messages.delete(this.spec.userId, this.spec.replyId).catch(() => false);
    return this.fail(code);
  }

  /** The one `chat:error` that ends a failed reply (C-15). */
  private fail(code: ErrorCode): ReplyOutcome {
    this.out.fail(code, this.language);
    return { kind: 'failed', code };
  }
}
