import { describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error.ts';
import { fakeReply, flight, redisRegistries } from '../../test-support/fake-reply.ts';
import { createMemoryReplyRegistry, type ReplyRegistry } from './reply-registry.ts';

/**
 * What every ReplyRegistry must do (SPEC.md C-2, C-7, C-8), whatever keeps its state: in memory
 * (one process) and in Redis (instances; M-5 — reply-registry.redis.test.ts has what only
 * several instances show).
 */
function describeReplyRegistry(name: string, make: () => ReplyRegistry | Promise<ReplyRegistry>) {
  describe(`ReplyRegistry: ${name}`, () => {
    it('C-2 runs one reply per user message: a second start answers the first and never runs', async () => {
      const registry = await make();
      const first = fakeReply();
      const second = fakeReply();
      const a = await registry.start(flight(1), first);
      const b = await registry.start(flight(2, { userMessageId: 'message-1' }), second);
      expect(a).toMatchObject({ replyId: 'reply-1', started: true });
      expect(b).toMatchObject({ replyId: 'reply-1', started: false });
      expect([first.runs, second.runs]).toEqual([1, 0]);
      expect((await registry.find('message-1'))?.replyId).toBe('reply-1');
      expect(registry.runningHere()).toBe(1);
      first.finish();
      expect(await b.done).toEqual(await a.done);
      expect(await registry.find('message-1')).toBeNull();
      expect(registry.runningHere()).toBe(0);
    });

    it("C-7 a cancel stops the user's own reply, with what was heard, and resolves after it ended", async () => {
      const registry = await make();
      const reply = fakeReply();
      const started = await registry.start(flight(1), reply);
      expect(await registry.cancel('someone-else', 'reply-1')).toBe(false);
      expect(await registry.cancel('user-1', 'unknown')).toBe(false);
      expect(reply.stops).toEqual([]);
      expect(await registry.cancel('user-1', 'reply-1', 1200)).toBe(true);
      expect(reply.stops).toEqual([{ reason: 'cancel', heardUntilMs: 1200 }]);
      expect(await started.done).toEqual({ kind: 'failed', code: 'cancelled' });
      expect(await registry.cancel('user-1', 'reply-1')).toBe(false);
    });

    it("stops every reply of a deleted session, and only that session's", async () => {
      const registry = await make();
      const mine = fakeReply();
      const other = fakeReply();
      await registry.start(flight(1), mine);
      await registry.start(flight(2, { sessionId: 'session-2' }), other);
      await registry.stopSession('user-1', 'session-1');
      expect(mine.stops.map((s) => s.reason)).toEqual(['deleted']);
      expect(other.stops).toEqual([]);
      other.finish();
    });

    it('runs the tasks of one session one after another, even when one fails; other sessions are not held', async () => {
      const registry = await make();
      const log: string[] = [];
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = registry.withSessionLock('s1', async () => {
        log.push('first start');
        await held;
        log.push('first end');
        throw new Error('the first task failed');
      });
      const second = registry.withSessionLock('s1', async () => {
        log.push('second');
        return 2;
      });
      const elsewhere = await registry.withSessionLock('s2', async () => {
        log.push('elsewhere');
        return 'free';
      });
      expect(elsewhere).toBe('free');
      release();
      await expect(first).rejects.toThrow('the first task failed');
      expect(await second).toBe(2);
      expect(log).toEqual(['first start', 'elsewhere', 'first end', 'second']);
    });

    it('C-8 drain refuses new replies, lets running ones finish within the grace, then stops the rest', async () => {
      const registry = await make();
      const quick = fakeReply();
      const slow = fakeReply();
      await registry.start(flight(1), quick);
      await registry.start(flight(2), slow);
      const drained = registry.drain(50);
      expect(registry.isAccepting()).toBe(false);
      const refused = await registry.start(flight(3), fakeReply()).catch((error: unknown) => error);
      expect(isAppError(refused) && refused.code).toBe('shutting_down');
      quick.finish();
      await drained;
      expect(quick.stops).toEqual([]);
      expect(slow.stops.map((s) => s.reason)).toEqual(['shutdown']);
      expect(registry.runningHere()).toBe(0);
    });
  });
}

describeReplyRegistry('in memory', createMemoryReplyRegistry);

describe('in Redis', () => {
  const open = redisRegistries();
  let runs = 0;
  describeReplyRegistry('in Redis', async () => {
    runs += 1;
    const { registry } = await open({
      instanceId: `instance-${runs}`,
      keyPrefix: `contract-${runs}:`, // each case starts from an empty registry
      finishOrphan: () => Promise.reject(new Error('no reply is orphaned here')),
    });
    return registry;
  });
});
