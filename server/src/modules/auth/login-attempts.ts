import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';

/**
 * Where the login guard (SPEC.md A-8) keeps its counts: this process's memory, or Redis so that
 * every instance behind a balancer counts the same failures (SPEC.md M-2). Times are the guard's
 * clock (ms), passed in, so both stores follow an injected clock alike; keys are opaque strings.
 * Both implementations pass one contract suite (login-attempts.test.ts).
 */
export interface LoginAttemptStore {
  /** The failure times of `key` later than `since`, oldest first (older ones may be dropped). */
  failures(key: string, since: number): Promise<number[]>;
  /** Records a failure at `at`; keeps at most the `keep` latest; forgets the key `ttlMs` after. */
  addFailure(key: string, at: number, keep: number, ttlMs: number): Promise<void>;
  /** Forgets every failure of `key`. */
  clearFailures(key: string): Promise<void>;
  /** A time remembered for `key` (a known device's last sign-in), or null. */
  getMark(key: string): Promise<number | null>;
  setMark(key: string, at: number, ttlMs: number): Promise<void>;
  /**
   * One turn at a time (the account slowdown): when the turn stored for `key` has come
   * (absent, or not after `now`), books the next at `now + spacingMs` and answers 0; otherwise
   * answers how long until it comes. Atomic, so two instances never both take one turn.
   */
  takeTurn(key: string, now: number, spacingMs: number): Promise<number>;
}

/** Keys kept at most per map; beyond it the least recently written go first. */
const MAX_KEYS = 100_000;

function bounded<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key); // re-insert: the Map's order is then least recently written first
  map.set(key, value);
  for (const old of map.keys()) {
    if (map.size <= MAX_KEYS) break;
    map.delete(old);
  }
}

/**
 * In this process's memory (the default without REDIS_URL): instances count separately and a
 * restart forgets. Bounded, so a flood of made-up emails cannot grow it without end.
 */
export function createMemoryLoginAttempts(): LoginAttemptStore {
  const failures = new Map<string, number[]>();
  const marks = new Map<string, number>();
  const turns = new Map<string, number>();
  const recent = (key: string, since: number) => (failures.get(key) ?? []).filter((t) => t > since);
  return {
    failures: async (key, since) => {
      const kept = recent(key, since);
      if (kept.length === 0) failures.delete(key);
      return kept;
    },
    async addFailure(key, at, keep, ttlMs) {
      bounded(failures, key, [...recent(key, at - ttlMs), at].slice(-keep));
    },
    clearFailures: async (key) => void failures.delete(key),
    // The guard judges a mark's age on its own clock; memory keeps it until pushed out.
    getMark: async (key) => marks.get(key) ?? null,
    setMark: async (key, at) => bounded(marks, key, at),
    async takeTurn(key, now, spacingMs) {
      const next = turns.get(key) ?? 0;
      if (next > now) return next - now;
      bounded(turns, key, now + spacingMs);
      return 0;
    },
  };
}

/** Books a turn atomically: KEYS[1] the turn, ARGV now, spacing, ttl (ms). */
const TAKE_TURN = `
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
local now = tonumber(ARGV[1])
if next > now then return next - now end
redis.call('SET', KEYS[1], tostring(now + tonumber(ARGV[2])), 'PX', ARGV[3])
return 0`;

/**
 * In Redis (REDIS_URL): failures are a sorted set per key scored by time, marks and turns plain
 * keys; every key carries an expiry, so Redis forgets them by itself. Members carry random bytes
 * so two failures in the same millisecond, from any instances, both count.
 */
export function createRedisLoginAttempts(redis: Redis, prefix = 'alma:login:'): LoginAttemptStore {
  const k = (key: string) => `${prefix}${key}`;
  return {
    async failures(key, since) {
      const scores = await redis.zrangebyscore(k(key), `(${since}`, '+inf', 'WITHSCORES');
      return scores.filter((_, i) => i % 2 === 1).map(Number);
    },
    async addFailure(key, at, keep, ttlMs) {
      await redis
        .multi()
        .zadd(k(key), at, `${at}:${randomBytes(8).toString('base64url')}`)
        .zremrangebyscore(k(key), '-inf', at - ttlMs)
        .zremrangebyrank(k(key), 0, -keep - 1)
        .pexpire(k(key), ttlMs)
        .exec();
    },
    clearFailures: async (key) => void (await redis.del(k(key))),
    async getMark(key) {
      const value = await redis.get(k(key));
      return value === null ? null : Number(value);
    },
    setMark: async (key, at, ttlMs) => void (await redis.set(k(key), String(at), 'PX', ttlMs)),
    async takeTurn(key, now, spacingMs) {
      // The booked turn outlives its time a little: an early caller is still told to wait.
      const wait = await redis.eval(TAKE_TURN, 1, k(key), now, spacingMs, spacingMs + 60_000);
      return Number(wait);
    },
  };
}
