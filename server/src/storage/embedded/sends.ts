import { checkMessageLimit } from '../shared.ts';
import type { SendRepository, SendWrite, SendWriteResult } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import type { MessageRows } from './messages.ts';
import type { SessionRows } from './sessions.ts';
import type { UsageRows } from './usage.ts';

/** Thrown inside the send's savepoint to undo what it wrote, carrying what to answer. */
class Undone extends Error {
  constructor(readonly result: SendWriteResult) {
    super(result.kind);
  }
}

/**
 * A user message's one write (types.ts `SendWrite`), in one savepoint of one group commit: a
 * retried send, a month at its limit or a session gone leaves nothing behind, and nothing can
 * come between the checks and the writes.
 */
export function createSendRepository(
  { write, atomic }: GroupCommit,
  rows: { usage: UsageRows; sessions: SessionRows; messages: MessageRows },
): SendRepository {
  const storeSend = atomic(({ message, reply, count, newSession }: SendWrite): SendWriteResult => {
    const { userId, sessionId } = message;
    if (message.clientMessageId !== null) {
      const existing = rows.messages.findByClientId(userId, message.clientMessageId);
      if (existing) return { kind: 'duplicate', message: existing };
    }
    const counted = rows.usage.tryCount(userId, count.period, count.limit);
    if (!counted.counted) return { kind: 'refused', usage: counted.usage };
    // The touch comes first: a session deleted since it was read takes the count back with it.
    const session = newSession
      ? rows.sessions.create(newSession)
      : rows.sessions.update(userId, sessionId, { updatedAt: message.createdAt });
    if (session === null) throw new Undone({ kind: 'no-session' });
    const inserted = rows.messages.insert(message, reply);
    if (inserted.duplicate) throw new Undone({ kind: 'duplicate', message: inserted.message });
    return { kind: 'stored', message: inserted.message, session, usage: counted.usage };
  });

  return {
    async store(send, options) {
      checkMessageLimit(send.count.limit);
      if (send.newSession && send.newSession.sessionId !== send.message.sessionId)
        throw new Error('a new session must be the message’s own');
      try {
        return await write(() => storeSend(send), options);
      } catch (error) {
        if (error instanceof Undone) return error.result;
        throw error;
      }
    },
  };
}
