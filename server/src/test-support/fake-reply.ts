import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ReplyFlight, ReplyRegistry, RunnableReply } from '../modules/chat/reply-registry.ts';
import {
  createRedisReplyRegistry,
  type RedisReplyRegistryOptions,
} from '../modules/chat/reply-registry.redis.ts';
import type { ReplyOutcome, StopReason } from '../modules/chat/reply-types.ts';
import { silentLog } from './chat-harness.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

/**
 * A reply the test ends: by `finish()`, or by a stop (then it ends as the run would, failed).
 * The registry tests' double for a reply run: what the registry does is under test, not the run.
 */
export function fakeReply() {
  let end: (outcome: ReplyOutcome) => void = () => {};
  const ended = new Promise<ReplyOutcome>((resolve) => (end = resolve));
  const reply = {
    runs: 0,
    stops: [] as { reason: StopReason; heardUntilMs: number | undefined }[],
    run(): Promise<ReplyOutcome> {
      reply.runs += 1;
      return ended;
    },
    stop(reason: StopReason, heardUntilMs?: number) {
      reply.stops.push({ reason, heardUntilMs });
      end({ kind: 'failed', code: reason === 'shutdown' ? 'shutting_down' : 'cancelled' });
    },
    finish: () => end({ kind: 'failed', code: 'reply_failed' }),
  } satisfies RunnableReply & Record<string, unknown>;
  return reply;
}

export const flight = (n: number, over: Partial<ReplyFlight> = {}): ReplyFlight => ({
  replyId: `reply-${n}`,
  userId: 'user-1',
  sessionId: 'session-1',
  userMessageId: `message-${n}`,
  ...over,
});

/**
 * Redis registries as instances for the registry tests: a real redis-server started in
 * `beforeAll`, each registry on its own connection; every one drained and disconnected after
 * each test, the server stopped after the file.
 */
/**
 * The reply rows' leases (MessageRepository.leaseReplies/replyLease) for registries without rows:
 * one map, shared like the database the instances share.
 */
export function rowLeases(): RedisReplyRegistryOptions['leases'] {
  const leases = new Map<string, number>();
  return {
    leaseReplies: async (replyIds, until) => {
      for (const id of replyIds) {
        if (until === null) leases.delete(id);
        else leases.set(id, until);
      }
    },
    replyLease: async (replyId) => leases.get(replyId) ?? null,
  };
}

export function redisRegistries() {
  let redis: TestRedis | undefined;
  const opened: { registry: ReplyRegistry; connection: Redis }[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterEach(async () => {
    for (const { registry, connection } of opened.splice(0)) {
      await registry.drain(0);
      connection.disconnect();
    }
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const leases = rowLeases();
  return async (options: Omit<RedisReplyRegistryOptions, 'redis' | 'log' | 'leases'>) => {
    if (!redis) throw new Error('redisRegistries: open registries inside tests');
    const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const registry = await createRedisReplyRegistry({
      ...options,
      leases,
      redis: connection,
      log: silentLog,
    });
    opened.push({ registry, connection });
    return { registry, connection };
  };
}
