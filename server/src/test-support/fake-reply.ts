import type { ReplyFlight, RunnableReply } from '../modules/chat/reply-registry.ts';
import type { ReplyOutcome, StopReason } from '../modules/chat/reply-types.ts';

/**
 * A reply the test ends: by `finish()`, or by a stop (then it ends as the run would, failed).
 * The registry tests' double for a reply run: what the registry does is under test, not the run.
 */
export function fakeReply() {
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

export const flight = (n: number, over: Partial<ReplyFlight> = {}): ReplyFlight => ({
  replyId: `reply-${n}`,
  userId: 'user-1',
  sessionId: 'session-1',
  userMessageId: `message-${n}`,
  ...over,
});
