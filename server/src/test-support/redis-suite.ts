import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startTestRedis, type TestRedis } from './redis-server.ts';

/** A describe block's own redis-server and one client on it, started once and stopped after. */
export interface RedisSuite {
  readonly server: TestRedis;
  readonly redis: Redis;
}

/** Call inside a `describe`: the server starts in its `beforeAll`, read the fields in tests. */
export function useTestRedis(): RedisSuite {
  let server: TestRedis | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    server = await startTestRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTestRedis: read inside a test, after beforeAll');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get redis() {
      return started(redis);
    },
  };
}
