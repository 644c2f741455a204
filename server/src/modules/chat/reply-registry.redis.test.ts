import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { silentLog } from '../../test-support/chat-harness.ts';
import { fakeReply, flight, redisRegistries, rowLeases } from '../../test-support/fake-reply.ts';
import { startTestRedis } from '../../test-support/redis-server.ts';
import type { ReplyFlight } from './reply-registry.ts';
import { createRedisReplyRegistry } from './reply-registry.redis.ts';
import type { ReplyOutcome } from './reply-types.ts';

/**
 * SPEC.md M-5: what only several instances show — each registry here is one instance with its
 * own Redis connection, all on one real redis-server. The cases every registry passes are in
 * reply-registry.test.ts.
 */
// Short, to keep the file quick; long enough that a loaded machine never starves a heartbeat past it.
const LEASE_MS = 1000;

const openRegistry = redisRegistries();
let cluster = 0;

/** Instances sharing one key prefix (a fresh one per test), each with an orphan log. */
function instances() {
  cluster += 1;
  const prefix = `m5-${cluster}:`;
  const orphans: { by: string; flight: ReplyFlight }[] = [];
  const open = (name: string) =>
    openRegistry({
      instanceId: name,
      keyPrefix: prefix,
      leaseMs: LEASE_MS,
      finishOrphan: async (flight): Promise<ReplyOutcome> => {
        orphans.push({ by: name, flight });
        return { kind: 'failed', code: 'reply_failed' };
      },
    });
  return { open, orphans };
}

describe('ReplyRegistry in Redis, across instances (M-5)', () => {
  it('M-5 a second send for a message whose reply runs on another instance gets that reply, never a second one', async () => {
    const { open } = instances();
    const a = (await open('A')).registry;
    const b = (await open('B')).registry;
    const onA = fakeReply();
    const onB = fakeReply();
    const started = await a.start(flight(1), onA);
    const again = await b.start(flight(2, { userMessageId: 'message-1' }), onB);
    expect(again).toMatchObject({ replyId: 'reply-1', started: false });
    expect([onA.runs, onB.runs]).toEqual([1, 0]);
    expect((await b.find('message-1'))?.replyId).toBe('reply-1');
    expect(b.runningHere()).toBe(0);
    onA.finish();
    expect(await again.done).toEqual(await started.done);
    expect(await b.find('message-1')).toBeNull();
    expect(await a.find('message-1')).toBeNull();
  });

  it('M-5 chat:cancel on another instance stops the reply where it runs, with what was heard, after its end', async () => {
    const { open } = instances();
    const a = (await open('A')).registry;
    const b = (await open('B')).registry;
    const reply = fakeReply();
    const started = await a.start(flight(1), reply);
    expect(await b.cancel('someone-else', 'reply-1')).toBe(false);
    expect(await b.cancel('user-1', 'unknown')).toBe(false);
    expect(reply.stops).toEqual([]);
    expect(await b.cancel('user-1', 'reply-1', 900)).toBe(true);
    expect(reply.stops).toEqual([{ reason: 'cancel', heardUntilMs: 900 }]);
    expect(await started.done).toEqual({ kind: 'failed', code: 'cancelled' });
    expect(await b.cancel('user-1', 'reply-1')).toBe(false);
  });

  it("M-5 deleting a session on one instance stops its replies on every instance, and only that session's", async () => {
    const { open } = instances();
    const a = (await open('A')).registry;
    const b = (await open('B')).registry;
    const mine = fakeReply();
    const other = fakeReply();
    const started = await a.start(flight(1), mine);
    await a.start(flight(2, { sessionId: 'session-2' }), other);
    await b.stopSession('user-1', 'session-1');
    expect(await started.done).toEqual({ kind: 'failed', code: 'cancelled' });
    expect(mine.stops.map((s) => s.reason)).toEqual(['deleted']);
    expect(other.stops).toEqual([]);
    other.finish();
  });

  it('M-5 one session lock across instances: tasks never overlap; other sessions are not held', async () => {
    const { open } = instances();
    const a = (await open('A')).registry;
    const b = (await open('B')).registry;
    const log: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = a.withSessionLock('s1', async () => {
      log.push('A start');
      await held;
      log.push('A end');
    });
    await new Promise((r) => setTimeout(r, 50)); // A holds the lock in Redis by now
    const second = b.withSessionLock('s1', async () => {
      log.push('B');
    });
    expect(await b.withSessionLock('s2', async () => 'free')).toBe('free');
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS)); // past the lock's expiry: A renews it
    expect(log).toEqual(['A start']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['A start', 'A end', 'B']);
  });

  it('M-5 a reply whose instance died is finished once by a live one within the lease, and is no longer in flight', async () => {
    const { open, orphans } = instances();
    const a = await open('A');
    const b = (await open('B')).registry;
    const c = (await open('C')).registry;
    await a.registry.start(flight(1), fakeReply());
    const waiting = await b.start(flight(2, { userMessageId: 'message-1' }), fakeReply());
    expect(waiting.started).toBe(false);
    // A is gone as a kill -9 leaves it: no heartbeat, no release; its lease runs out.
    a.connection.disconnect();
    expect(await waiting.done).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(orphans.map((o) => o.flight)).toEqual([flight(1)]);
    expect(['B', 'C']).toContain(orphans[0]?.by);
    expect(await c.find('message-1')).toBeNull();
    expect(await c.cancel('user-1', 'reply-1')).toBe(false);
    // Sent again, the message gets a new reply (C-2), here.
    const retried = await c.start(flight(3, { userMessageId: 'message-1' }), fakeReply());
    expect(retried).toMatchObject({ replyId: 'reply-3', started: true });
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS));
    expect(orphans).toHaveLength(1);
  });

  it('M-5 while Redis is away, replies and session locks run on this instance alone rather than fail', async () => {
    const lost = await startTestRedis();
    const connection = new Redis(lost.url, { maxRetriesPerRequest: 1 });
    connection.on('error', () => undefined); // refused connections, expected here
    const registry = await createRedisReplyRegistry({
      redis: connection,
      instanceId: 'alone',
      leaseMs: LEASE_MS,
      finishOrphan: () => Promise.reject(new Error('no reply is orphaned here')),
      leases: rowLeases(),
      log: silentLog,
    });
    try {
      await lost.stop();
      const reply = fakeReply();
      const started = await registry.start(flight(1), reply);
      expect(started).toMatchObject({ replyId: 'reply-1', started: true });
      expect(reply.runs).toBe(1);
      expect((await registry.find('message-1'))?.replyId).toBe('reply-1');
      expect(await registry.withSessionLock('session-1', async () => 'ran')).toBe('ran');
      expect(await registry.cancel('user-1', 'reply-1', 300)).toBe(true);
      expect(await started.done).toEqual({ kind: 'failed', code: 'cancelled' });
    } finally {
      await registry.drain(0);
      connection.disconnect();
    }
  });
});
