import { AppError } from '../../lib/app-error.ts';
import type { ReplyOutcome, StopReason } from './reply-types.ts';

/** Whose reply it is and to which message: what the registry knows of a reply in flight. */
export interface ReplyFlight {
  replyId: string;
  userId: string;
  sessionId: string;
  userMessageId: string;
}

/** A reply as the registry drives it: run once; stopped from wherever a cancel arrives. */
export interface RunnableReply {
  /** Streams, stores and publishes the reply; never rejects — a failure is an outcome. */
  run(): Promise<ReplyOutcome>;
  /** Stops generation and speech at once. The first stop wins; later ones change nothing. */
  stop(reason: StopReason, heardUntilMs?: number): void;
}

export interface InFlightReply {
  replyId: string;
  done: Promise<ReplyOutcome>;
}

/**
 * The replies in flight and the per-session locks (ARCHITECTURE §3 step 6; SPEC.md C-2, C-7,
 * C-8). Every method is async and every reply is addressed by its id, so an implementation
 * shared between instances (Redis, issue 15) fits the same interface: a cancel reaches the reply
 * wherever it runs, and a second send for one message finds the first reply on any instance.
 */
export interface ReplyRegistry {
  /** The reply in flight for a user message, if any (C-2: one message never has two replies). */
  find(userMessageId: string): Promise<InFlightReply | null>;
  /**
   * Runs `reply` as the answer to `flight.userMessageId` — unless one is in flight for that
   * message already: then that one is answered (`started: false`) and `reply` never runs.
   * Refuses with `shutting_down` once draining (C-8).
   */
  start(flight: ReplyFlight, reply: RunnableReply): Promise<InFlightReply & { started: boolean }>;
  /**
   * Stops one of the user's replies (C-7, S-2) and resolves after its last event; false when
   * there is no such reply in flight (ended, unknown, or another user's).
   */
  cancel(userId: string, replyId: string, heardUntilMs?: number): Promise<boolean>;
  /**
   * A reply whose row is stored incomplete but which `find` does not know: still running on a
   * live instance, as its lease in the database says (SPEC.md M-5: Redis may have lost its
   * record), or null — it was interrupted. One process: always null.
   */
  running(replyId: string): Promise<InFlightReply | null>;
  /** Called once the reply's row is stored: with several instances, its lease starts (M-5). */
  leaseRow(replyId: string): Promise<void>;
  /** Asks every reply of the session to stop: the session is being deleted. */
  stopSession(userId: string, sessionId: string): Promise<void>;
  /** Runs `task` after the session's earlier tasks: session updates are read-modify-write. */
  withSessionLock<T>(sessionId: string, task: () => Promise<T>): Promise<T>;
  /** False once draining: new sends are refused (C-8). */
  isAccepting(): boolean;
  /**
   * Graceful shutdown (C-8): refuse new replies, let this process's replies finish for up to
   * `graceMs`, then stop the rest — they are stored as incomplete.
   */
  drain(graceMs: number): Promise<void>;
  /** How many replies run in this process. */
  runningHere(): number;
}

interface Entry {
  flight: ReplyFlight;
  reply: RunnableReply;
  done: Promise<ReplyOutcome>;
}

/** The registry of one process: everything in memory (no `REDIS_URL`). */
export function createMemoryReplyRegistry(): ReplyRegistry {
  const running = new Map<string, Entry>(); // by replyId
  const byMessage = new Map<string, string>(); // userMessageId → replyId
  const locks = new Map<string, Promise<unknown>>();
  let accepting = true;

  const handle = (entry: Entry): InFlightReply => ({ replyId: entry.flight.replyId, done: entry.done });
  const entryFor = (userMessageId: string): Entry | undefined => {
    const replyId = byMessage.get(userMessageId);
    return replyId === undefined ? undefined : running.get(replyId);
  };

  return {
    async find(userMessageId) {
      const entry = entryFor(userMessageId);
      return entry ? handle(entry) : null;
    },

    async start(flight, reply) {
      const existing = entryFor(flight.userMessageId);
      if (existing) return { ...handle(existing), started: false };
      if (!accepting) throw new AppError('shutting_down');
      const entry: Entry = { flight, reply, done: Promise.resolve({ kind: 'failed', code: 'reply_failed' }) };
      running.set(flight.replyId, entry);
      byMessage.set(flight.userMessageId, flight.replyId);
      entry.done = reply.run().finally(() => {
        running.delete(flight.replyId);
        if (byMessage.get(flight.userMessageId) === flight.replyId) byMessage.delete(flight.userMessageId);
      });
      return { ...handle(entry), started: true };
    },

    running: async () => null,
    leaseRow: async () => undefined,

    async cancel(userId, replyId, heardUntilMs) {
      const entry = running.get(replyId);
      if (!entry || entry.flight.userId !== userId) return false;
      entry.reply.stop('cancel', heardUntilMs);
      await entry.done;
      return true;
    },

    async stopSession(userId, sessionId) {
      for (const { flight, reply } of running.values()) {
        if (flight.userId === userId && flight.sessionId === sessionId) reply.stop('deleted');
      }
    },

    withSessionLock(sessionId, task) {
      const run = (locks.get(sessionId) ?? Promise.resolve()).then(task);
      const tail = run.catch(() => undefined);
      locks.set(sessionId, tail);
      void tail.then(() => {
        if (locks.get(sessionId) === tail) locks.delete(sessionId);
      });
      return run;
    },

    isAccepting: () => accepting,

    async drain(graceMs) {
      accepting = false;
      const all = () => Promise.all([...running.values()].map((entry) => entry.done));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
      );
      const result = await Promise.race([all().then(() => 'done' as const), timeout]);
      clearTimeout(timer);
      if (result === 'timeout') {
        for (const entry of running.values()) entry.reply.stop('shutdown');
        await all();
      }
    },

    runningHere: () => running.size,
  };
}
