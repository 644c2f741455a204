import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Log } from '../../lib/logger.ts';

/** A slot taken, or the number of slots already busy when there was none left. */
export type SlotTaken = { ok: true; release: () => Promise<void> } | { ok: false; busy: number };

/**
 * The plan's concurrent-upload slots that voice uploads hold while they arrive and are analysed
 * (spec §5): in this process, or in Redis so every instance counts the same slots (SPEC.md M-6).
 */
export interface UploadSlots {
  /**
   * Takes one of the user's slots unless `held + other >= max` (`other`: the user's other uploads
   * in progress, counted elsewhere). The release is idempotent.
   */
  take(userId: string, max: number, other: number): Promise<SlotTaken>;
  /** The user's slots held now. */
  held(userId: string): Promise<number>;
  /** Stops refreshing the slots' leases (shutdown). */
  close(): void;
}

/** One process: a count per user. */
export function createMemoryUploadSlots(): UploadSlots {
  const held = new Map<string, number>();
  return {
    async take(userId, max, other) {
      const busy = (held.get(userId) ?? 0) + other;
      if (busy >= max) return { ok: false, busy };
      held.set(userId, (held.get(userId) ?? 0) + 1);
      let released = false;
      return {
        ok: true,
        release: async () => {
          if (released) return;
          released = true;
          const left = (held.get(userId) ?? 1) - 1;
          if (left > 0) held.set(userId, left);
          else held.delete(userId);
        },
      };
    },
    held: async (userId) => held.get(userId) ?? 0,
    close: () => undefined,
  };
}

/**
 * Drops the user's expired slots, counts the rest, and takes one when the count and `other`
 * leave room: the check and the take are one step, so two instances can't both take the last.
 * A slot is a sorted-set member scored by the end of its lease (Redis time).
 */
const TAKE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local busy = redis.call('ZCARD', KEYS[1]) + tonumber(ARGV[3])
if busy >= tonumber(ARGV[2]) then return busy end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return -1`;

const HELD = `
local t = redis.call('TIME')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t[1] * 1000 + math.floor(t[2] / 1000))
return redis.call('ZCARD', KEYS[1])`;

/** Extends a held slot's lease (XX: a slot released or expired is not brought back). */
const RENEW = `
local t = redis.call('TIME')
local until_ = t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], 'XX', until_, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Slots shared by instances (SPEC.md M-6). Each slot carries a lease its instance renews every
 * third of `leaseMs`: the slots of an instance that died free themselves when their lease ends.
 * Redis away: slots are counted in this process alone rather than refuse every upload (as M-2).
 */
export function createRedisUploadSlots(options: {
  redis: Redis;
  leaseMs: number;
  log: Log;
  keyPrefix?: string;
}): UploadSlots {
  const { redis, leaseMs, log } = options;
  const prefix = options.keyPrefix ?? 'alma:upload-slots:';
  const fallback = createMemoryUploadSlots();
  const mine = new Map<string, string>(); // slot id → user id
  const warn = (error: unknown) =>
    log.warn({ err: error }, 'upload slots: Redis failed; this instance counts its own slots');

  const timer = setInterval(() => {
    for (const [slot, userId] of mine) {
      void redis.eval(RENEW, 1, prefix + userId, slot, leaseMs).catch(() => 0);
    }
  }, leaseMs / 3);
  timer.unref();

  return {
    async take(userId, max, other) {
      const slot = randomUUID();
      let busy: number;
      try {
        busy = (await redis.eval(TAKE, 1, prefix + userId, slot, max, other, leaseMs)) as number;
      } catch (error) {
        warn(error);
        return fallback.take(userId, max, other);
      }
      if (busy >= 0) return { ok: false, busy };
      mine.set(slot, userId);
      return {
        ok: true,
        release: async () => {
          if (!mine.delete(slot)) return;
          await redis.zrem(prefix + userId, slot).catch(warn);
        },
      };
    },
    async held(userId) {
      try {
        return ((await redis.eval(HELD, 1, prefix + userId)) as number) + (await fallback.held(userId));
      } catch (error) {
        warn(error);
        return fallback.held(userId);
      }
    },
    close: () => clearInterval(timer),
  };
}
