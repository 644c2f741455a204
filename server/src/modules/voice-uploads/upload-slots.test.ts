import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLog } from '../../test-support/chat-harness.ts';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { createMemoryUploadSlots, createRedisUploadSlots, type UploadSlots } from './upload-slots.ts';

/** The concurrent-upload slots of voice uploads (spec §5), in memory and in Redis (SPEC.md M-6). */
function describeUploadSlots(name: string, make: () => UploadSlots) {
  describe(`UploadSlots: ${name}`, () => {
    it('takes up to the plan’s number, counting the other uploads; refuses past it with the busy count', async () => {
      const slots = make();
      const first = await slots.take('u1', 2, 0);
      const second = await slots.take('u1', 2, 0);
      expect([first.ok, second.ok]).toEqual([true, true]);
      expect(await slots.take('u1', 2, 0)).toEqual({ ok: false, busy: 2 });
      expect(await slots.held('u1')).toBe(2);
      // Another user's slots are theirs.
      expect((await slots.take('u2', 2, 1)).ok).toBe(true);
      expect(await slots.take('u2', 2, 1)).toEqual({ ok: false, busy: 2 });
      if (first.ok) {
        await first.release();
        await first.release(); // idempotent
      }
      expect(await slots.held('u1')).toBe(1);
      expect(await slots.take('u1', 2, 1)).toEqual({ ok: false, busy: 2 });
      expect((await slots.take('u1', 2, 0)).ok).toBe(true);
    });
  });
}

describeUploadSlots('in memory', createMemoryUploadSlots);

describe('in Redis', () => {
  const LEASE_MS = 1000; // a loaded machine never starves a renewal past it
  let redis: TestRedis;
  let runs = 0;
  const opened: { slots: UploadSlots; connection: Redis }[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterEach(() => {
    for (const { slots, connection } of opened.splice(0)) {
      slots.close();
      connection.disconnect();
    }
  });
  afterAll(async () => {
    await redis?.stop();
  });
  /** An instance's slots on its own connection; `keyPrefix` shared by the instances of one test. */
  const instance = (keyPrefix: string) => {
    const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const slots = createRedisUploadSlots({ redis: connection, leaseMs: LEASE_MS, log: silentLog, keyPrefix });
    opened.push({ slots, connection });
    return { slots, connection };
  };

  describeUploadSlots('in Redis', () => instance(`slots-${++runs}:`).slots);

  it('M-6 every instance counts the same slots: the limit is reached at the same count as on one', async () => {
    const a = instance('m6-shared:').slots;
    const b = instance('m6-shared:').slots;
    const onA = await a.take('u1', 2, 0);
    expect((await b.take('u1', 2, 0)).ok).toBe(true);
    expect(await a.take('u1', 2, 0)).toEqual({ ok: false, busy: 2 });
    expect(await b.take('u1', 2, 0)).toEqual({ ok: false, busy: 2 });
    expect(await b.held('u1')).toBe(2);
    if (onA.ok) await onA.release();
    expect((await b.take('u1', 2, 0)).ok).toBe(true);
  });

  it('M-6 a held slot outlives its lease while its instance lives; a dead instance’s slots free themselves', async () => {
    const alive = instance('m6-lease:').slots;
    const dying = instance('m6-lease:');
    expect((await alive.take('u1', 2, 0)).ok).toBe(true);
    expect((await dying.slots.take('u1', 2, 0)).ok).toBe(true);
    // As a kill -9 leaves it: no more renewals, no release.
    dying.slots.close();
    dying.connection.disconnect();
    await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
    expect(await alive.held('u1')).toBe(1);
    expect((await alive.take('u1', 2, 0)).ok).toBe(true);
  });
});
