import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { HealthCheck } from '../modules/health/health-monitor.ts';

/** How long start-up waits for Redis before it stops with a message naming REDIS_URL. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The instance's connection to the Redis that instances share (REDIS_URL; ARCHITECTURE §5).
 * Commands fail after two reconnect attempts rather than queueing without end, so a limit or a
 * lock asked while Redis is away answers (with an error the caller handles) instead of hanging;
 * the client keeps reconnecting in the background and /health says `redis` is down meanwhile.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis repeats the same error on every reconnect attempt; log each new one once.
    if (error.message === lastError) return;
    lastError = error.message;
    log.warn({ err: error }, 'redis connection error');
  });
  redis.on('ready', () => {
    if (lastError) log.info('redis connection back');
    lastError = '';
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`REDIS_URL: cannot reach Redis (${reason})`, { cause: error });
  }
  return redis;
}

/** The monitor's `redis` check (SPEC.md H-1): a PING answered with PONG. */
export function redisHealthCheck(redis: Redis): HealthCheck {
  return {
    name: 'redis',
    run: async () => {
      if (redis.status !== 'ready') return { ok: false, detail: redis.status };
      return (await redis.ping()) === 'PONG';
    },
  };
}
