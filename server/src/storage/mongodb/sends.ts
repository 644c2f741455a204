import type { MessageRepository, SendRepository, SessionRepository, UsageRepository } from '../types.ts';

/**
 * A user message's write, one step after another: without a replica set MongoDB has no
 * transactions. The retried send is looked for before the count, so only two sends racing with
 * one `clientMessageId`, or a session deleted between the count and the message, count the month
 * once too often — in the user's disfavour, never past the limit (the count is conditional).
 */
export function createSendRepository(repos: {
  usage: UsageRepository;
  sessions: SessionRepository;
  messages: MessageRepository;
}): SendRepository {
  const { usage, sessions, messages } = repos;
  return {
    async store({ message, reply, count, newSession }, options) {
      const { userId, sessionId } = message;
      if (newSession && newSession.sessionId !== sessionId)
        throw new Error('a new session must be the message’s own');
      if (message.clientMessageId !== null) {
        const existing = await messages.findByClientMessageId(userId, message.clientMessageId);
        if (existing) return { kind: 'duplicate', message: existing };
      }
      const counted = await usage.tryCountMessage(userId, count.period, count.limit, options);
      if (!counted.counted) return { kind: 'refused', usage: counted.usage };
      const session = newSession
        ? await sessions.create(newSession, options)
        : await sessions.update(userId, sessionId, { updatedAt: message.createdAt }, options);
      if (session === null) return { kind: 'no-session' };
      const inserted = await messages.insert(message, { ...options, reply });
      if (inserted.duplicate) return { kind: 'duplicate', message: inserted.message };
      return { kind: 'stored', message: inserted.message, session, usage: counted.usage };
    },
  };
}
