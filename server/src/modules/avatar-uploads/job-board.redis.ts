import type { Redis } from 'ioredis';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../../lib/logger.ts';
import { createLocalRunner, createPuller } from '../../lib/fair-queue.ts';
import { jobOf, type AvatarJob, type JobBoard, type JobBoardDeps } from './job-board.ts';

/**
 * Avatar jobs shared by instances through Redis (REDIS_URL; SPEC.md M-7). The queue is the
 * database's pending records; any instance with a free worker takes one. Fairness is the one
 * process's (AU-3) across the cluster: one job per user at a time — the user's key in Redis,
 * held under a lease its instance renews — and the user served least recently goes first (a
 * shared counter). A job whose lease ran out (its instance died) is taken back by a live
 * instance; a half-received upload lives in its instance's own folder, removed only once that
 * instance's lease is gone. Cancels reach the instance running the job over a channel.
 *
 * Not BullMQ: its per-group fairness is a paid feature, and a second copy of each job outside
 * the database would have to be kept in step with the record a cancel or a deletion changes.
 */

export interface RedisJobBoardOptions extends JobBoardDeps {
  redis: Redis;
  leaseMs: number;
  /** Jobs this instance runs at once (its worker threads). */
  workers: number;
  log: Log;
  keyPrefix?: string;
}

/** Sets the key to ARGV[1] when it is free or already ours; 1 when it is ours now. */
const RENEW = `
local v = redis.call('GET', KEYS[1])
if v and v ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Deletes the key only if it is still ours. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export function createRedisJobBoard(options: RedisJobBoardOptions): JobBoard {
  const { redis, leaseMs, instanceId, log } = options;
  const p = options.keyPrefix ?? 'alma:avatar-jobs:';
  const key = { user: `${p}user:`, instance: `${p}instance:`, served: `${p}served`, seq: `${p}seq` };
  const channel = `${p}events`;
  const runner = createLocalRunner(options);
  /** The users whose job runs here → that job's lock value. */
  const held = new Map<string, string>();
  /** Jobs seen without a live lease → when first seen (a lease gets one full term to come back). */
  const suspects = new Map<string, number>();
  const valueOf = (jobId: string) => `${instanceId}/${jobId}`;
  const warn = (error: unknown, what: string) => log.warn({ err: error }, `avatar jobs: ${what} failed`);
  let closed = false;

  const heartbeat = async () => {
    await redis.set(key.instance + instanceId, '1', 'PX', leaseMs);
    // RENEW also puts back a lease Redis lost (a restart): the job is still ours.
    for (const [userId, value] of held) await redis.eval(RENEW, 1, key.user + userId, value, leaseMs);
  };

  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined); // reconnects by itself; the poll covers the gap
  subscriber.on('message', (_channel: string, raw: string) => {
    const message = JSON.parse(raw) as { kind: 'wake' } | { kind: 'stop'; id: string };
    if (message.kind === 'stop') runner.stop(message.id);
    else pull();
  });
  const publish = (message: object) =>
    redis.publish(channel, JSON.stringify(message)).catch((e: unknown) => warn(e, 'publishing'));

  /** Claims the next fair job, if any: the user served least recently with none running. */
  async function claimNext(): Promise<AvatarJob | null> {
    const pending = (await options.listUnfinished())
      .filter((r) => r.status === 'pending')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const users = [...new Set(pending.map((r) => r.userId))];
    if (!users.length) return null;
    const [locks, served] = await Promise.all([
      redis.mget(users.map((u) => key.user + u)),
      redis.hmget(key.served, ...users),
    ]);
    const order = users
      .map((userId, i) => ({ userId, locked: locks[i] !== null, served: Number(served[i] ?? -1) }))
      .filter((u) => !u.locked)
      .sort((a, b) => a.served - b.served);
    for (const { userId } of order) {
      const record = pending.find((r) => r.userId === userId);
      if (!record) continue;
      const value = valueOf(record.id);
      if ((await redis.set(key.user + userId, value, 'PX', leaseMs, 'NX')) !== 'OK') continue;
      held.set(userId, value);
      await redis.hset(key.served, userId, await redis.incr(key.seq));
      return jobOf(record);
    }
    return null;
  }

  async function finished(job: AvatarJob) {
    const value = held.get(job.userId);
    held.delete(job.userId);
    if (value)
      await redis.eval(RELEASE, 1, key.user + job.userId, value).catch((e: unknown) => warn(e, 'release'));
    await publish({ kind: 'wake' });
  }

  /** Fills this instance's free workers from the shared queue. */
  const pull = createPuller({
    free: () => !closed && options.queue.size() < options.workers,
    take: async () => {
      const job = await claimNext();
      if (job) runner.enqueue(job, () => void finished(job).finally(pull));
      return job !== null;
    },
    onError: (e: unknown) => warn(e, 'taking a job'),
  });

  /** Takes back the jobs whose lease has been gone for a whole term (their instance died). */
  async function reap(): Promise<void> {
    const processing = (await options.listUnfinished()).filter((r) => r.status === 'processing');
    const locks = processing.length ? await redis.mget(processing.map((r) => key.user + r.userId)) : [];
    const now = Date.now();
    const seen = new Set<string>();
    for (const [i, record] of processing.entries()) {
      if (locks[i]?.endsWith(`/${record.id}`)) continue;
      seen.add(record.id);
      const since = suspects.get(record.id) ?? now;
      suspects.set(record.id, since);
      if (now - since < leaseMs) continue;
      suspects.delete(record.id);
      log.warn({ avatarId: record.id }, 'avatar job: its instance is gone; taken back');
      await options.takeOver(record);
    }
    for (const id of suspects.keys()) if (!seen.has(id)) suspects.delete(id);
    pull();
  }

  /** Removes the half-received uploads of instances whose lease is gone. */
  async function sweepIncoming(): Promise<void> {
    await mkdir(options.incomingRoot, { recursive: true });
    for (const entry of await readdir(options.incomingRoot, { withFileTypes: true })) {
      if (entry.name === instanceId) continue;
      // A plain file is from a release before per-instance folders: no live instance writes it.
      if (entry.isDirectory() && (await redis.exists(key.instance + entry.name))) continue;
      await rm(join(options.incomingRoot, entry.name), { recursive: true, force: true });
    }
  }

  const timer = setInterval(() => {
    void heartbeat().catch((e: unknown) => warn(e, 'heartbeat'));
  }, leaseMs / 3);
  const reaper = setInterval(() => void reap().catch((e: unknown) => warn(e, 'reaping')), leaseMs / 2);
  timer.unref();
  reaper.unref();

  return {
    incoming: join(options.incomingRoot, instanceId),
    add: () => {
      pull();
      void publish({ kind: 'wake' });
    },
    running: () => [...runner.running.keys()],
    finished: runner.finished,
    async stop(id) {
      runner.stop(id);
      await publish({ kind: 'stop', id });
    },
    async recover() {
      await heartbeat();
      await subscriber.subscribe(channel);
      await sweepIncoming();
      await reap();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(reaper);
      runner.abortAll();
      await Promise.all(
        [...held].map(([userId, value]) => redis.eval(RELEASE, 1, key.user + userId, value).catch(() => 0)),
      );
      await redis.del(key.instance + instanceId).catch(() => 0);
      subscriber.disconnect();
    },
  };
}
