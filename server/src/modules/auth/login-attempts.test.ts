import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../../test-support/redis-suite.ts';
import {
  createMemoryLoginAttempts,
  createRedisLoginAttempts,
  type LoginAttemptStore,
} from './login-attempts.ts';

/**
 * One contract for both stores of the login guard (SPEC.md A-8, M-2): what the guard relies on
 * holds whether the counts live in memory or in Redis.
 */
function loginAttemptStoreContract(name: string, make: () => LoginAttemptStore) {
  describe(`login attempt store contract: ${name}`, () => {
    let n = 0;
    /** A fresh key per test: one Redis serves the whole suite. */
    const key = () => `contract:${Date.now()}:${++n}`;

    it('A-8 counts failures after a time, oldest first, two in one millisecond included', async () => {
      const store = make();
      const k = key();
      for (const at of [1000, 2000, 2000, 3000]) await store.addFailure(k, at, 10, 60_000);
      expect(await store.failures(k, 0)).toEqual([1000, 2000, 2000, 3000]);
      expect(await store.failures(k, 1999)).toEqual([2000, 2000, 3000]);
      expect(await store.failures(k, 3000)).toEqual([]);
    });

    it('A-8 keeps only the latest `keep` failures and drops those older than the window', async () => {
      const store = make();
      const k = key();
      for (let at = 1; at <= 6; at++) await store.addFailure(k, at * 1000, 3, 60_000);
      expect(await store.failures(k, 0)).toEqual([4000, 5000, 6000]);
      await store.addFailure(k, 64_500, 3, 60_000);
      expect(await store.failures(k, 0)).toEqual([5000, 6000, 64_500]);
    });

    it('A-8 clears one key and leaves the others', async () => {
      const store = make();
      const [a, b] = [key(), key()];
      await store.addFailure(a, 1, 5, 60_000);
      await store.addFailure(b, 1, 5, 60_000);
      await store.clearFailures(a);
      expect(await store.failures(a, 0)).toEqual([]);
      expect(await store.failures(b, 0)).toEqual([1]);
    });

    it('A-8 remembers a mark (a known device) by key', async () => {
      const store = make();
      const k = key();
      expect(await store.getMark(k)).toBeNull();
      await store.setMark(k, 12_345, 60_000);
      expect(await store.getMark(k)).toBe(12_345);
      await store.setMark(k, 23_456, 60_000);
      expect(await store.getMark(k)).toBe(23_456);
    });

    it('A-8 gives one turn at a time: the next comes `spacing` after the last taken', async () => {
      const store = make();
      const k = key();
      expect(await store.takeTurn(k, 10_000, 1000)).toBe(0);
      expect(await store.takeTurn(k, 10_400, 2000)).toBe(600);
      expect(await store.takeTurn(k, 11_000, 2000)).toBe(0);
      expect(await store.takeTurn(k, 11_000, 2000)).toBe(2000);
      // Many callers at once: exactly one gets the turn.
      const waits = await Promise.all(Array.from({ length: 8 }, () => store.takeTurn(k, 13_000, 500)));
      expect(waits.filter((w) => w === 0)).toHaveLength(1);
    });
  });
}

loginAttemptStoreContract('memory', createMemoryLoginAttempts);

describe('with Redis (REDIS_URL)', () => {
  const suite = useTestRedis();

  loginAttemptStoreContract('redis', () => createRedisLoginAttempts(suite.redis));

  it('M-2 A-8 two instances on one Redis see the same counts, marks and turns', async () => {
    const a = createRedisLoginAttempts(suite.redis);
    const b = createRedisLoginAttempts(suite.redis);
    await a.addFailure('shared', 1000, 5, 60_000);
    await b.addFailure('shared', 1000, 5, 60_000);
    expect(await b.failures('shared', 0)).toEqual([1000, 1000]);
    await a.setMark('shared-mark', 42, 60_000);
    expect(await b.getMark('shared-mark')).toBe(42);
    expect(await a.takeTurn('shared-turn', 5000, 1000)).toBe(0);
    expect(await b.takeTurn('shared-turn', 5000, 1000)).toBe(1000);
  });

  it('A-8 Redis forgets a key by itself once its window is over', async () => {
    const store = createRedisLoginAttempts(suite.redis);
    await store.addFailure('expiring', 1000, 5, 60_000);
    const ttl = await suite.redis.pttl('alma:login:expiring');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
