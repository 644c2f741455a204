import type { Redis } from 'ioredis';
import { createPuller } from '../../lib/fair-queue.ts';
import type { Log } from '../../lib/logger.ts';
import {
  createAnalysisWorkers,
  withinLimit,
  type AnalysisJob,
  type AnalysisOutcome,
  type AnalysisQueue,
  type AnalysisQueueDeps,
} from './analysis-jobs.ts';

/**
 * Voice analysis jobs shared by instances through Redis (REDIS_URL; SPEC.md M-9). The instance
 * that took the upload queues the job and waits; any instance with a free worker claims it, runs
 * it and stores the outcome, which reaches the waiting request (pub/sub, and a poll in case a
 * message was lost). Every instance holds a lease it renews every third of `leaseMs`. A job
 * claimed by an instance whose lease ran out goes back to the front of the queue; a job whose
 * waiting instance died is dropped with its sample (nobody will record the voice). A job that
 * Redis lost (a restart) is queued again by the instance waiting for it. While Redis is away,
 * an instance analyses its own uploads.
 *
 * Like the avatar jobs (job-board.redis.ts), not BullMQ: a job is a few keys and three scripts,
 * and the fair queue and worker threads are the ones avatar jobs run on.
 */

export interface RedisAnalysisQueueOptions extends AnalysisQueueDeps {
  redis: Redis;
  leaseMs: number;
  log: Log;
  keyPrefix?: string;
}

/** A queued job as Redis keeps it. */
interface Stored {
  job: AnalysisJob;
  limitMs: number;
  /** The instance whose request waits for the outcome. */
  owner: string;
}

/** How long an outcome waits for its owner to read it. */
const OUTCOME_TTL_MS = 60_000;

/** KEYS: waiting, jobs, running; ARGV: instance. The next job still wanted, now claimed. */
const CLAIM = `
while true do
  local id = redis.call('LPOP', KEYS[1])
  if not id then return false end
  local stored = redis.call('HGET', KEYS[2], id)
  if stored then
    redis.call('HSET', KEYS[3], id, ARGV[1])
    return stored
  end
end`;

/**
 * KEYS: jobs, running, waiting, outcome; ARGV: id, outcome, ttl, instance prefix. Stores the first
 * outcome of a job still wanted: 1 when its owner is alive, 0 when it is gone, -1 when the job
 * was finished or dropped already.
 */
const FINISH = `
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if not stored then return -1 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('LREM', KEYS[3], 0, ARGV[1])
redis.call('SET', KEYS[4], ARGV[2], 'PX', ARGV[3])
return redis.call('EXISTS', ARGV[4] .. cjson.decode(stored).owner)`;

/** KEYS: jobs, running, waiting; ARGV: id. Forgets a job wherever it is. */
const DROP = `
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('LREM', KEYS[3], 0, ARGV[1])
return 1`;

/**
 * KEYS: jobs, running, waiting; ARGV: instance prefix. Jobs claimed by a dead instance go back to
 * the front of the queue; jobs of a dead owner are dropped and returned (their samples go).
 */
const REAP = `
local requeued = 0
local running = redis.call('HGETALL', KEYS[2])
for i = 1, #running, 2 do
  if redis.call('EXISTS', ARGV[1] .. running[i + 1]) == 0 then
    redis.call('HDEL', KEYS[2], running[i])
    if redis.call('HEXISTS', KEYS[1], running[i]) == 1 then
      redis.call('LPUSH', KEYS[3], running[i])
      requeued = requeued + 1
    end
  end
end
local dropped = {}
local jobs = redis.call('HGETALL', KEYS[1])
for i = 1, #jobs, 2 do
  if redis.call('EXISTS', ARGV[1] .. cjson.decode(jobs[i + 1]).owner) == 0 then
    redis.call('HDEL', KEYS[1], jobs[i])
    redis.call('HDEL', KEYS[2], jobs[i])
    redis.call('LREM', KEYS[3], 0, jobs[i])
    table.insert(dropped, jobs[i + 1])
  end
end
return {requeued, dropped}`;

export function createRedisAnalysisQueue(options: RedisAnalysisQueueOptions): AnalysisQueue {
  const { redis, leaseMs, instanceId, log } = options;
  const p = options.keyPrefix ?? 'alma:voice-jobs:';
  const key = { jobs: `${p}jobs`, waiting: `${p}waiting`, running: `${p}running`, instance: `${p}instance:` };
  const outcomeKey = (id: string) => `${p}outcome:${id}`;
  const lists = [key.jobs, key.running, key.waiting] as const;
  const channel = `${p}events`;
  const workers = createAnalysisWorkers(options);
  /** The jobs this instance's requests wait for → their settle and what to queue again. */
  const waiters = new Map<string, { stored: Stored; settle: (outcome: AnalysisOutcome) => void }>();
  const warn = (error: unknown, what: string) => log.warn({ err: error }, `voice jobs: ${what} failed`);
  let closed = false;

  const heartbeat = () => redis.set(key.instance + instanceId, '1', 'PX', leaseMs);
  const publish = (message: { kind: 'wake' } | { kind: 'stop' | 'done'; id: string }) =>
    redis.publish(channel, JSON.stringify(message)).catch((e: unknown) => warn(e, 'publishing'));

  async function enqueue(stored: Stored): Promise<void> {
    await redis
      .multi()
      .hset(key.jobs, stored.job.id, JSON.stringify(stored))
      .rpush(key.waiting, stored.job.id)
      .exec();
    pull();
    await publish({ kind: 'wake' });
  }

  /** Settles a waiting request with its job's outcome, once there is one. */
  async function collect(id: string): Promise<void> {
    const waiter = waiters.get(id);
    if (!waiter) return;
    const raw = await redis.get(outcomeKey(id));
    if (raw !== null) {
      waiters.delete(id);
      waiter.settle(JSON.parse(raw) as AnalysisOutcome);
      await redis.del(outcomeKey(id));
    } else if ((await redis.hexists(key.jobs, id)) === 0) {
      await enqueue(waiter.stored); // Redis lost it (a restart): queued again
    }
  }

  async function finish(job: AnalysisJob, outcome: AnalysisOutcome): Promise<void> {
    const owner = (await redis.eval(
      FINISH,
      4,
      ...lists,
      outcomeKey(job.id),
      job.id,
      JSON.stringify(outcome),
      OUTCOME_TTL_MS,
      key.instance,
    )) as number;
    if (owner === 0) await options.discard(job); // nobody will record the voice
    if (owner >= 0) await publish({ kind: 'done', id: job.id });
  }

  /** Fills this instance's free workers from the shared queue. */
  const pull = createPuller({
    free: () => !closed && workers.queue.size() < options.workers,
    take: async () => {
      const raw = (await redis.eval(CLAIM, 3, key.waiting, key.jobs, key.running, instanceId)) as
        string | null;
      if (!raw) return false;
      const { job, limitMs } = JSON.parse(raw) as Stored;
      void workers
        .run(job, limitMs)
        // Closing: the job stays claimed by this instance, whose lease ends now; another takes it.
        .then((outcome) => (closed ? undefined : finish(job, outcome)))
        .catch((e: unknown) => warn(e, 'finishing a job'))
        .finally(pull);
      return true;
    },
    onError: (e: unknown) => warn(e, 'taking a job'),
  });

  /** Takes back the jobs of dead instances, and collects outcomes a lost message did not bring. */
  async function reap(): Promise<void> {
    const [requeued, dropped] = (await redis.eval(REAP, 3, ...lists, key.instance)) as [number, string[]];
    for (const raw of dropped) {
      const { job } = JSON.parse(raw) as Stored;
      log.warn({ voiceId: job.id }, 'voice job: the instance waiting for it is gone; dropped');
      await publish({ kind: 'stop', id: job.id });
      await options.discard(job);
    }
    if (requeued > 0) {
      log.warn({ requeued }, 'voice jobs: their instance is gone; queued again');
      await publish({ kind: 'wake' });
    }
    for (const id of waiters.keys()) await collect(id);
    pull();
  }

  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined); // reconnects by itself; the reaper's poll covers the gap
  subscriber.on('message', (_channel: string, raw: string) => {
    const message = JSON.parse(raw) as { kind: 'wake' } | { kind: 'stop' | 'done'; id: string };
    if (message.kind === 'wake') pull();
    else if (message.kind === 'stop') workers.stop(message.id);
    else void collect(message.id).catch((e: unknown) => warn(e, 'reading an outcome'));
  });

  const timers: NodeJS.Timeout[] = [];

  return {
    async analyse(job, limitMs) {
      const stored: Stored = { job, limitMs, owner: instanceId };
      const outcome = new Promise<AnalysisOutcome>((settle) => waiters.set(job.id, { stored, settle }));
      try {
        await enqueue(stored);
      } catch (error) {
        warn(error, 'queueing; analysed here');
        waiters.delete(job.id);
        return withinLimit(workers.run(job, limitMs), limitMs, () => workers.stop(job.id));
      }
      return withinLimit(outcome, limitMs, () => {
        waiters.delete(job.id);
        workers.stop(job.id);
        void redis
          .eval(DROP, 3, ...lists, job.id)
          .then(() => publish({ kind: 'stop', id: job.id }))
          .catch((e: unknown) => warn(e, 'stopping a job'));
      });
    },
    async state() {
      const waiting = await redis.llen(key.waiting).catch(() => workers.waitingHere());
      return workers.state(instanceId, waiting);
    },
    async start() {
      await heartbeat();
      await subscriber.subscribe(channel);
      timers.push(
        setInterval(() => void heartbeat().catch((e: unknown) => warn(e, 'heartbeat')), leaseMs / 3),
        setInterval(() => void reap().catch((e: unknown) => warn(e, 'reaping')), leaseMs / 2),
      );
      for (const timer of timers) timer.unref();
      await reap();
    },
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      workers.close();
      for (const { settle } of waiters.values())
        settle({ ok: false, code: 'shutting_down', detail: 'the server is stopping' });
      waiters.clear();
      await redis.del(key.instance + instanceId).catch(() => 0);
      subscriber.disconnect();
    },
  };
}
