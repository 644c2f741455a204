import { describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/app-error.ts';
import {
  createMemoryReplyRegistry,
  type ReplyFlight,
  type ReplyRegistry,
  type RunnableReply,
} from './reply-registry.ts';
import type { ReplyOutcome, StopReason } from './reply-types.ts';

/** A reply the test ends: by `finish()`, or by a stop (then it ends as the run would, failed). */
function fakeReply() {
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

const flight = (n: number, over: Partial<ReplyFlight> = {}): ReplyFlight => ({
  replyId: `reply-${n}`,
  userId: 'user-1',
  sessionId: 'session-1',
  userMessageId: `message-${n}`,
  ...over,
});

/**
 * What every ReplyRegistry must do (SPEC.md C-2, C-7, C-8), whatever keeps its state: the
 * in-memory one here; one shared between instances (issue 15) runs the same cases.
 */
function describeReplyRegistry(name: string, make: () => ReplyRegistry) {
  describe(`ReplyRegistry: ${name}`, () => {
    it('C-2 runs one reply per user message: a second start answers the first and never runs', async () => {
      const registry = make();
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
      const registry = make();
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
      const registry = make();
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
      const registry = make();
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
      const registry = make();
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
