import type { Message } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../lib/ids.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { chat, storage, useChatHarness, userId, type Published } from '../../test-support/chat-harness.ts';
import { createOrphanFinisher, ORPHAN_FIRST_SEQ } from './orphan-replies.ts';

/** SPEC.md M-5: a reply whose instance died, finished by another instance from what is stored. */
useChatHarness();

const sent: Published[] = [];
const publisher: Publisher = {
  toSession: (_sessionId, event, payload) => sent.push({ to: 'session', event, payload }),
  toUser: (_userId, event, payload) => sent.push({ to: 'user', event, payload }),
};

/** What a kill -9 mid-reply leaves: the user message, and its reply's row with what was flushed. */
async function leftByACrash(flushed: string) {
  sent.length = 0;
  const session = await chat.sessions.create(userId, null, 'default');
  const base = {
    sessionId: session.sessionId,
    userId,
    createdAt: new Date().toISOString(),
    emotion: null,
    emotionAnalysis: null,
    language: 'es',
    userLanguage: 'es',
    audioUrl: null,
  } as const;
  const { message: userMessage } = await storage.messages.insert({
    ...base,
    _id: uuidv7(),
    role: 'user',
    content: 'Hola, ¿qué tal?',
    clientMessageId: 'crash-1',
    replyTo: null,
    personality: null,
    isComplete: true,
  });
  const { message: reply } = await storage.messages.insert({
    ...base,
    _id: uuidv7(),
    role: 'assistant',
    content: flushed,
    clientMessageId: null,
    replyTo: userMessage._id,
    personality: 'default',
    isComplete: false,
  });
  const flight = { replyId: reply._id, userId, sessionId: session.sessionId, userMessageId: userMessage._id };
  return { flight, userMessage, reply };
}

const finish = createOrphanFinisher({
  get messages() {
    return storage.messages;
  },
  get sessions() {
    return storage.sessions;
  },
  publisher,
});

describe('M-5 an orphaned reply', () => {
  it('M-5 keeps what was flushed as incomplete and announces it as the end, past every seq the dead instance sent', async () => {
    const { flight, userMessage, reply } = await leftByACrash('Muy bien, gracias por');
    const outcome = await finish(flight);
    expect(outcome).toMatchObject({
      kind: 'stored',
      message: { _id: reply._id, content: 'Muy bien, gracias por', isComplete: false },
      reply: { reply: 'Muy bien, gracias por', isComplete: false, userMessageId: userMessage._id },
    });
    expect(sent.map((p) => [p.event, p.payload.seq])).toEqual([
      ['chat:typing', ORPHAN_FIRST_SEQ],
      ['chat:reply', ORPHAN_FIRST_SEQ + 1],
    ]);
    expect(sent[1]?.payload).toMatchObject({ replyId: reply._id, clientMessageId: 'crash-1' });
    expect(await storage.messages.findReplyTo(userId, userMessage._id)).toMatchObject({
      _id: reply._id,
      isComplete: false,
    });
  });

  it('M-5 with nothing flushed leaves no row and ends with a retryable reply_failed (C-5, C-15)', async () => {
    const { flight, userMessage } = await leftByACrash('');
    expect(await finish(flight)).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(sent.map((p) => p.event)).toEqual(['chat:typing', 'chat:error']);
    expect(sent[1]?.payload).toMatchObject({
      code: 'reply_failed',
      retryable: true,
      seq: ORPHAN_FIRST_SEQ + 1,
    });
    expect(await storage.messages.findReplyTo(userId, userMessage._id)).toBeNull();
  });

  it('M-5 leaves alone a reply that replaced it (the message sent again meanwhile)', async () => {
    const { flight, userMessage, reply } = await leftByACrash('Texto de la respuesta nueva');
    expect(await finish({ ...flight, replyId: uuidv7() })).toEqual({ kind: 'failed', code: 'reply_failed' });
    expect(sent.map((p) => p.event)).toEqual(['chat:typing', 'chat:error']);
    const kept = (await storage.messages.findReplyTo(userId, userMessage._id)) as Message;
    expect(kept).toMatchObject({ _id: reply._id, content: 'Texto de la respuesta nueva' });
  });
});
