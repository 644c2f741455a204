import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ServerOptions } from 'socket.io';
import type { HealthCheck } from '../modules/health/health-monitor.ts';
import { connectRedis, redisHealthCheck } from './redis.ts';

/**
 * What instances share when REDIS_URL is set (ARCHITECTURE §5, issue 15), or nothing when it is
 * not: then every limit, lock and room stays in this process, as with one instance.
 */
export interface ScaleOut {
  /** The shared Redis; null: one process, in-memory implementations. */
  redis: Redis | null;
  /**
   * socket.io through Redis streams: an event for a user's or a session's room reaches its sockets
   * on every instance, and connection-state recovery works whichever instance a client returns to.
   */
  socketAdapter: ServerOptions['adapter'] | undefined;
  /** The monitor's extra checks (SPEC.md H-1): `redis` when there is one. */
  checks: HealthCheck[];
  /** Closes the connection; after the sockets and everything else that uses it. */
  close: () => Promise<void>;
}

export async function openScaleOut(redisUrl: string | undefined, log: FastifyBaseLogger): Promise<ScaleOut> {
  if (!redisUrl) return { redis: null, socketAdapter: undefined, checks: [], close: async () => undefined };
  const redis = await connectRedis(redisUrl, log);
  return {
    redis,
    socketAdapter: createAdapter(redis, {
      streamName: 'alma:socket.io',
      channelPrefix: 'alma:socket.io',
      sessionKeyPrefix: 'alma:socket.io:session:',
    }),
    checks: [redisHealthCheck(redis)],
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
