import type { ServerEventName, ServerPayload } from '@alma/protocol';
import type { Redis } from 'ioredis';
import type { Publisher } from '../realtime/publisher.ts';

/** How long a reply's events are kept after its end while Redis is connected. */
const KEEP_AFTER_END_MS = 10_000;

interface Sent {
  sessionId: string;
  event: ServerEventName;
  payload: ServerPayload<ServerEventName>;
}

interface Kept {
  events: Sent[];
  /** When its `chat:reply` or `chat:error` left; null while it streams. */
  endedAt: number | null;
}

const isReplyEvent = (payload: object): payload is { replyId: string; seq: number } =>
  'replyId' in payload && 'seq' in payload && typeof payload.seq === 'number';

/**
 * Reply events sent again after Redis comes back (SPEC.md M-1). The streams adapter hands an
 * event to the other instances through Redis: one added to the stream just before Redis stopped
 * (a restart loses what it has not saved) or refused while Redis was away never reaches their
 * sockets, while this instance's own sockets got it. So each reply streaming here keeps its
 * events (seq-numbered, C-4) until a while after its end, and when the connection to Redis is
 * ready again after a loss, they all go to the session's room once more: a client keeps the ones
 * it missed and drops the repeats by seq, and joins the deltas in seq order.
 */
export function withReplyResend(
  publisher: Publisher,
  redis: Redis,
): { publisher: Publisher; close: () => void } {
  const replies = new Map<string, Kept>();
  let lost = false;

  const sweep = () => {
    if (lost) return; // kept for the resend once Redis is back
    const before = Date.now() - KEEP_AFTER_END_MS;
    for (const [replyId, kept] of replies) {
      if (kept.endedAt !== null && kept.endedAt < before) replies.delete(replyId);
    }
  };
  const onClose = () => {
    lost = true;
  };
  const onReady = () => {
    if (!lost) return;
    lost = false;
    for (const [replyId, kept] of replies) {
      for (const { sessionId, event, payload } of kept.events) publisher.toSession(sessionId, event, payload);
      if (kept.endedAt !== null) replies.delete(replyId);
    }
  };
  redis.on('close', onClose);
  redis.on('ready', onReady);
  const timer = setInterval(sweep, KEEP_AFTER_END_MS);
  timer.unref();

  return {
    publisher: {
      toUser: (userId, event, payload) => publisher.toUser(userId, event, payload),
      toSession(sessionId, event, payload, options) {
        publisher.toSession(sessionId, event, payload, options);
        if (!isReplyEvent(payload)) return;
        let kept = replies.get(payload.replyId);
        if (!kept) replies.set(payload.replyId, (kept = { events: [], endedAt: null }));
        kept.events.push({ sessionId, event, payload });
        if (event === 'chat:reply' || event === 'chat:error') kept.endedAt = Date.now();
      },
    },
    close: () => {
      clearInterval(timer);
      redis.off('close', onClose);
      redis.off('ready', onReady);
      replies.clear();
    },
  };
}
