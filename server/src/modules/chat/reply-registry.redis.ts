import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { Log } from '../../lib/logger.ts';
import type { MessageRepository } from '../../storage/types.ts';
import {
  createMemoryReplyRegistry,
  type InFlightReply,
  type ReplyFlight,
  type ReplyRegistry,
} from './reply-registry.ts';
import type { ReplyOutcome } from './reply-types.ts';

/** How long an instance's lease lasts without a heartbeat (SPEC.md M-5); INSTANCE_LEASE_MS. */
export const INSTANCE_LEASE_MS = 10_000;
/** How long a finished reply's outcome stays readable, for a waiter that missed its message. */
const OUTCOME_TTL_MS = 60_000;
/** How long a claimed orphan's record outlives a reaper that dies while finishing it. */
const REAPING_TTL_MS = 60_000;
/** How long a task waits for another instance's session lock before it fails. */
const LOCK_WAIT_MS = 30_000;

export interface RedisReplyRegistryOptions {
  redis: Redis;
  /** This process, as the owner of the replies it runs; unique among live instances. */
  instanceId: string;
  /** Every key and channel starts with it (tests keep runs apart with their own). */
  keyPrefix?: string;
  leaseMs?: number;
  /**
   * Ends, for its clients, a reply whose instance died mid-reply (SPEC.md M-5): called on one
   * live instance only, once per such reply; its outcome reaches every waiter.
   */
  finishOrphan: (flight: ReplyFlight) => Promise<ReplyOutcome>;
  /**
   * The replies' rows, leased while they run here: the database says a reply still runs when
   * Redis has lost its record (restarted empty) or is away (SPEC.md M-5).
   */
  leases: Pick<MessageRepository, 'leaseReplies' | 'replyLease'>;
  log: Log;
}

/** A reply runs here unless one for the same message runs on a live instance; owner refreshed. */
const CLAIM = `
local existing = redis.call('GET', KEYS[1])
if existing then
  local owner = redis.call('HGET', ARGV[6] .. existing, 'owner')
  if owner and redis.call('EXISTS', ARGV[7] .. owner) == 1 then return existing end
end
redis.call('SET', ARGV[7] .. ARGV[2], '1', 'PX', ARGV[8])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'userId', ARGV[3], 'sessionId', ARGV[4], 'userMessageId', ARGV[5], 'owner', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[1])
return false`;

/** The reply in flight for a message, if its owner is alive. */
const FIND = `
local id = redis.call('GET', KEYS[1])
if not id then return false end
local owner = redis.call('HGET', ARGV[1] .. id, 'owner')
if not owner or redis.call('EXISTS', ARGV[2] .. owner) == 0 then return false end
return id`;

/** A reply's user and owner, if its owner is alive. */
const OWNER = `
local f = redis.call('HMGET', KEYS[1], 'userId', 'owner')
if not f[2] or redis.call('EXISTS', ARGV[1] .. f[2]) == 0 then return false end
return f`;

/** A reply ended: its outcome kept a while and published; it is no longer in flight. */
const RELEASE = `
redis.call('SET', KEYS[4], ARGV[2], 'PX', ARGV[3])
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1`;

/**
 * Claims the replies whose owner's lease expired: out of the set (so one instance claims each)
 * and no longer in flight for their message; the record stays a while for the reaper to finish.
 */
const REAP = `
local dead = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local f = redis.call('HMGET', ARGV[1] .. id, 'owner', 'userId', 'sessionId', 'userMessageId')
  if not f[1] or redis.call('EXISTS', ARGV[2] .. f[1]) == 0 then
    redis.call('SREM', KEYS[1], id)
    if f[4] and redis.call('GET', ARGV[3] .. f[4]) == id then redis.call('DEL', ARGV[3] .. f[4]) end
    if f[2] then
      redis.call('PEXPIRE', ARGV[1] .. id, ARGV[4])
      table.insert(dead, {id, f[2], f[3], f[4]})
    end
  end
end
return dead`;

const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

type Control =
  | { kind: 'cancel'; from: string; userId: string; replyId: string; heardUntilMs?: number }
  | { kind: 'stopSession'; from: string; userId: string; sessionId: string };

interface Waiter {
  done: Promise<ReplyOutcome>;
  resolve: (outcome: ReplyOutcome) => void;
  timer: NodeJS.Timeout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The registry shared by instances through Redis (REDIS_URL; SPEC.md M-5). Each reply runs in
 * the process that started it (a memory registry drives it there); Redis knows which instance
 * owns it, under that instance's lease. A cancel or a session's deletion reaches the owner over
 * pub/sub; a second send for one message finds the reply wherever it runs and waits for its
 * outcome; a reply whose owner's lease ran out is finished once, as incomplete, by a live
 * instance. Session locks are Redis locks with a token and an expiry the holder renews.
 *
 * Redis away: the registry falls back to this process (replies run unclaimed, locks are local),
 * as rate limits do (M-2): replies go on rather than fail.
 */
export async function createRedisReplyRegistry(options: RedisReplyRegistryOptions): Promise<ReplyRegistry> {
  const { redis, instanceId, log, finishOrphan, leases } = options;
  const leaseMs = options.leaseMs ?? INSTANCE_LEASE_MS;
  const p = options.keyPrefix ?? 'alma:replies:';
  const key = {
    instance: `${p}instance:`,
    flight: `${p}flight:`,
    message: `${p}message:`,
    done: `${p}done:`,
    lock: `${p}lock:`,
    flights: `${p}flights`,
    control: `${p}control`,
    ended: `${p}ended`,
  };
  const local = createMemoryReplyRegistry();
  /** The replies started here, by user message, with `done` after their release in Redis. */
  const own = new Map<string, InFlightReply & { flight: ReplyFlight }>();
  const waiters = new Map<string, Waiter>();
  let closed = false;

  const warn = (error: unknown, what: string) =>
    log.warn({ err: error }, `reply registry: ${what} failed; this instance goes on alone`);

  const claim = (flight: ReplyFlight) =>
    redis.eval(
      CLAIM,
      3,
      key.message + flight.userMessageId,
      key.flight + flight.replyId,
      key.flights,
      flight.replyId,
      instanceId,
      flight.userId,
      flight.sessionId,
      flight.userMessageId,
      key.flight,
      key.instance,
      leaseMs,
    ) as Promise<string | null>;

  /**
   * Renews this instance's lease, in Redis and on its replies' rows. A lease Redis no longer has
   * (it restarted empty) is set again with this instance's replies, so cancels find them again.
   */
  const heartbeat = async () => {
    const replies = [...own.values()];
    if (replies.length > 0) {
      await leases
        .leaseReplies(
          replies.map((r) => r.replyId),
          Date.now() + leaseMs,
        )
        .catch((e: unknown) => log.error({ err: e }, 'reply registry: renewing reply leases failed'));
    }
    if ((await redis.pexpire(key.instance + instanceId, leaseMs)) === 1) return;
    await redis.set(key.instance + instanceId, '1', 'PX', leaseMs);
    for (const { flight } of replies) await claim(flight);
  };
  await heartbeat();

  /** Whether a reply's row is leased by a live instance (its owner renews it every third of a lease). */
  const leased = async (replyId: string) => ((await leases.replyLease(replyId)) ?? 0) > Date.now();

  /** Publishes a reply's end: waiters anywhere resolve, and it is no longer in flight. */
  const release = async (replyId: string, userMessageId: string, outcome: ReplyOutcome) => {
    const json = JSON.stringify(outcome);
    await redis.eval(
      RELEASE,
      4,
      key.flight + replyId,
      key.flights,
      key.message + userMessageId,
      key.done + replyId,
      replyId,
      json,
      OUTCOME_TTL_MS,
      key.ended,
      JSON.stringify({ replyId, outcome }),
    );
  };

  const settle = (replyId: string, outcome: ReplyOutcome) => {
    const waiter = waiters.get(replyId);
    if (!waiter) return;
    waiters.delete(replyId);
    clearInterval(waiter.timer);
    waiter.resolve(outcome);
  };

  /** Checks the stored outcome; a record gone without one means its reaper died too. */
  const poll = async (replyId: string) => {
    const [stored, exists] = await Promise.all([
      redis.get(key.done + replyId),
      redis.exists(key.flight + replyId),
    ]);
    if (stored) settle(replyId, JSON.parse(stored) as ReplyOutcome);
    else if (exists === 0 && !(await leased(replyId)))
      settle(replyId, { kind: 'failed', code: 'reply_failed' });
  };

  /** The outcome of a reply running elsewhere: published when it ends, polled once a lease. */
  const outcomeOf = (replyId: string): Promise<ReplyOutcome> => {
    const existing = waiters.get(replyId);
    if (existing) return existing.done;
    let resolve: (outcome: ReplyOutcome) => void = () => {};
    const done = new Promise<ReplyOutcome>((r) => (resolve = r));
    const timer = setInterval(() => void poll(replyId).catch(() => undefined), leaseMs);
    timer.unref();
    waiters.set(replyId, { done, resolve, timer });
    void poll(replyId).catch(() => undefined);
    return done;
  };

  const publish = (message: Control) => redis.publish(key.control, JSON.stringify(message));

  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined); // the main connection logs Redis errors
  subscriber.on('message', (channel: string, text: string) => {
    if (channel === key.ended) {
      const { replyId, outcome } = JSON.parse(text) as { replyId: string; outcome: ReplyOutcome };
      settle(replyId, outcome);
      return;
    }
    const message = JSON.parse(text) as Control;
    if (message.from === instanceId) return;
    if (message.kind === 'cancel') void local.cancel(message.userId, message.replyId, message.heardUntilMs);
    else void local.stopSession(message.userId, message.sessionId);
  });
  await subscriber.subscribe(key.control, key.ended);

  /** Finishes, once across instances, every reply whose owner's lease expired. */
  const reap = async () => {
    const dead = (await redis.eval(
      REAP,
      1,
      key.flights,
      key.flight,
      key.instance,
      key.message,
      REAPING_TTL_MS,
    )) as [string, string, string, string][];
    for (const [replyId, userId, sessionId, userMessageId] of dead) {
      const flight = { replyId, userId, sessionId, userMessageId };
      const outcome = await finishOrphan(flight).catch((error: unknown): ReplyOutcome => {
        log.error({ err: error, replyId }, 'reply registry: finishing an orphaned reply failed');
        return { kind: 'failed', code: 'reply_failed' };
      });
      await release(replyId, userMessageId, outcome);
    }
  };

  const heartbeatTimer = setInterval(() => void heartbeat().catch(() => undefined), leaseMs / 3);
  const reapTimer = setInterval(() => void reap().catch((e: unknown) => warn(e, 'reaping')), leaseMs / 2);
  heartbeatTimer.unref();
  reapTimer.unref();

  const remote = (replyId: string): InFlightReply => ({ replyId, done: outcomeOf(replyId) });

  /** Holds the session's Redis lock for the task; false when Redis is away (the task runs anyway). */
  const lock = async (sessionId: string, token: string): Promise<boolean> => {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      try {
        if ((await redis.set(key.lock + sessionId, token, 'PX', leaseMs, 'NX')) === 'OK') return true;
      } catch (error) {
        warn(error, 'a session lock');
        return false;
      }
      if (Date.now() > deadline)
        throw new Error(`session ${sessionId}: its lock was held for ${LOCK_WAIT_MS} ms`);
      await sleep(wait);
    }
  };

  return {
    async find(userMessageId) {
      const here = own.get(userMessageId);
      if (here) return { replyId: here.replyId, done: here.done };
      try {
        const replyId = (await redis.eval(FIND, 1, key.message + userMessageId, key.flight, key.instance)) as
          string | null;
        return replyId ? remote(replyId) : null;
      } catch (error) {
        warn(error, 'finding a reply');
        return null;
      }
    },

    async start(flight, reply) {
      const here = own.get(flight.userMessageId);
      if (here) return { replyId: here.replyId, done: here.done, started: false };
      if (!local.isAccepting()) throw new AppError('shutting_down');
      let claimed = true;
      try {
        const existing = await claim(flight);
        if (existing) return { ...remote(existing), started: false };
      } catch (error) {
        warn(error, 'claiming a reply');
        claimed = false;
      }
      const started = await local.start(flight, reply);
      const done = started.done.then(async (outcome) => {
        await leases
          .leaseReplies([flight.replyId], null)
          .catch((e: unknown) => log.error({ err: e }, 'reply registry: ending a reply lease failed'));
        if (claimed) {
          await release(flight.replyId, flight.userMessageId, outcome).catch((e: unknown) =>
            warn(e, 'releasing a reply'),
          );
        }
        own.delete(flight.userMessageId);
        return outcome;
      });
      const handle = { replyId: started.replyId, done };
      own.set(flight.userMessageId, { ...handle, flight });
      return { ...handle, started: true };
    },

    async running(replyId) {
      return (await leased(replyId)) ? remote(replyId) : null;
    },

    async leaseRow(replyId) {
      await leases.leaseReplies([replyId], Date.now() + leaseMs);
    },

    async cancel(userId, replyId, heardUntilMs) {
      if (await local.cancel(userId, replyId, heardUntilMs)) return true;
      try {
        const found = (await redis.eval(OWNER, 1, key.flight + replyId, key.instance)) as
          [string, string] | null;
        if (!found || found[0] !== userId || found[1] === instanceId) return false;
        const done = outcomeOf(replyId);
        await publish({ kind: 'cancel', from: instanceId, userId, replyId, heardUntilMs });
        await done;
        return true;
      } catch (error) {
        warn(error, 'a cancel');
        return false;
      }
    },

    async stopSession(userId, sessionId) {
      await local.stopSession(userId, sessionId);
      await publish({ kind: 'stopSession', from: instanceId, userId, sessionId }).catch((e: unknown) =>
        warn(e, 'stopping a session'),
      );
    },

    withSessionLock(sessionId, task) {
      // Queued in this process first, so only one task of the session here asks Redis at a time.
      return local.withSessionLock(sessionId, async () => {
        const token = randomUUID();
        const held = await lock(sessionId, token);
        const renew = held
          ? setInterval(
              () => void redis.eval(RENEW, 1, key.lock + sessionId, token, leaseMs).catch(() => 0),
              leaseMs / 3,
            )
          : undefined;
        try {
          return await task();
        } finally {
          clearInterval(renew);
          if (held) await redis.eval(UNLOCK, 1, key.lock + sessionId, token).catch(() => 0);
        }
      });
    },

    isAccepting: () => local.isAccepting(),

    async drain(graceMs) {
      await local.drain(graceMs);
      if (closed) return;
      closed = true;
      clearInterval(heartbeatTimer);
      clearInterval(reapTimer);
      for (const replyId of [...waiters.keys()]) settle(replyId, { kind: 'failed', code: 'shutting_down' });
      await redis.del(key.instance + instanceId).catch(() => 0);
      await subscriber.quit().catch(() => subscriber.disconnect());
    },

    runningHere: () => local.runningHere(),
  };
}
