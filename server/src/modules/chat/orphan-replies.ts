import { DEFAULT_LANGUAGE } from '@alma/protocol';
import type { Publisher } from '../../realtime/publisher.ts';
import type { MessageRepository, SessionRepository } from '../../storage/types.ts';
import { storedReplyOutcome } from './chat-reply.ts';
import { createReplyEmitter } from './reply-emitter.ts';
import type { ReplyFlight } from './reply-registry.ts';
import type { ReplyOutcome } from './reply-types.ts';

/**
 * The first `seq` of the events that end an orphaned reply (SPEC.md M-5): past any seq its dead
 * instance reached — no one knows how far it got — so a client that saw part of the stream takes
 * them as new, and its end.
 */
export const ORPHAN_FIRST_SEQ = 1_000_000_000;

/**
 * Ends a reply whose instance died mid-reply (SPEC.md M-5), for the clients still waiting on it:
 * what it flushed stays stored as an incomplete reply (C-5) and is announced as its end,
 * `chat:typing` false then `chat:reply`; with nothing flushed its row goes and the reply ends with
 * `chat:error` `reply_failed` (retryable: sent again, the message gets a new reply, C-2).
 */
export function createOrphanFinisher(deps: {
  messages: MessageRepository;
  sessions: SessionRepository;
  publisher: Publisher;
}) {
  return async (flight: ReplyFlight): Promise<ReplyOutcome> => {
    const { replyId, userId, sessionId, userMessageId } = flight;
    const out = createReplyEmitter(deps.publisher, sessionId, replyId, ORPHAN_FIRST_SEQ);
    const stored = await deps.messages.findReplyTo(userId, userMessageId);
    // Replaced already (a retried send answered anew), or its session deleted: no row of its own.
    const row = stored?._id === replyId ? stored : null;
    const userMessage = row
      ? (await deps.messages.all(userId, sessionId)).find((m) => m._id === userMessageId)
      : undefined;
    if (!row || !userMessage || row.content.trim() === '') {
      if (row) await deps.messages.delete(userId, replyId);
      out.fail('reply_failed', row?.language ?? DEFAULT_LANGUAGE);
      return { kind: 'failed', code: 'reply_failed' };
    }
    const outcome = await storedReplyOutcome(deps.sessions, userId, row, userMessage);
    out.reply({
      clientMessageId: userMessage.clientMessageId,
      message: outcome.message,
      reply: outcome.reply,
    });
    return outcome;
  };
}
