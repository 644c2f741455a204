import { describe, expect, it } from 'vitest';
import { ServerEvent, type ChatReply, type Message, type ServerPayload } from '@alma/protocol';
import type { AnyServerEvent as ChatServerEvent } from '../../../lib/realtime.ts';
import { testChatReply, testMessage } from '../../../test/fixtures.ts';
import {
  initialConversation,
  reduceConversation,
  type ConversationData as ChatData,
} from './conversation.ts';
import { localMessageId, streamMessageId } from './messages.ts';

const SESSION = 's1';
const REPLY = 'r1';
const CMID = 'c1';

function message(overrides: Partial<Message> = {}): Message {
  return testMessage({
    _id: 'm-bot',
    sessionId: SESSION,
    role: 'assistant',
    content: 'Hola, Ana.',
    replyTo: 'm-user',
    emotion: 'happy',
    ...overrides,
  });
}

function chatReply(text: string): ChatReply {
  return testChatReply({
    reply: text,
    sessionId: SESSION,
    animationIntent: {
      shouldAnimate: true,
      gesture: 'greeting',
      emotion: 'happy',
      context: { duration: 3000 },
    },
  });
}

const typing = (seq: number): ChatServerEvent => ({
  name: ServerEvent.chatTyping,
  payload: { replyId: REPLY, sessionId: SESSION, seq, typing: true },
});
const delta = (seq: number, text: string, replyId = REPLY): ChatServerEvent => ({
  name: ServerEvent.chatDelta,
  payload: { replyId, sessionId: SESSION, seq, text },
});
const reply = (seq: number, text = 'Hola, Ana.'): ChatServerEvent => ({
  name: ServerEvent.chatReply,
  payload: {
    replyId: REPLY,
    sessionId: SESSION,
    seq,
    clientMessageId: CMID,
    message: message({ content: text }),
    reply: chatReply(text),
  },
});
const chatError = (payload: Partial<ServerPayload<typeof ServerEvent.chatError>>): ChatServerEvent => ({
  name: ServerEvent.chatError,
  payload: { code: 'reply_failed', message: 'Error al procesar el mensaje.', retryable: true, ...payload },
});

/** A tab that sent "Hola" in session s1 and got its ack (replyId r1). */
function waiting(): ChatData {
  return {
    ...initialConversation,
    activeSessionId: SESSION,
    messages: [
      {
        id: 'm-user',
        type: 'user',
        content: 'Hola',
        timestamp: '2025-01-01T09:59:59.000Z',
        clientMessageId: CMID,
      },
    ],
    pending: { clientMessageId: CMID, text: 'Hola', sessionId: SESSION, replyId: REPLY },
    typing: true,
  };
}

function run(state: ChatData, ...events: ChatServerEvent[]): ChatData {
  return events.reduce(reduceConversation, state);
}

const streamText = (state: ChatData) => state.messages.find((m) => m.id === streamMessageId(REPLY))?.content;

describe('reply stream (SPEC.md C-4)', () => {
  it('typing marks the reply as pending without adding a message', () => {
    const state = run(waiting(), typing(0));
    expect(state.typing).toBe(true);
    expect(state.messages).toHaveLength(1);
  });

  it('chat:typing false says the companion stopped writing, though the reply is not final yet', () => {
    const stopped: ChatServerEvent = {
      name: ServerEvent.chatTyping,
      payload: { replyId: REPLY, sessionId: SESSION, seq: 2, typing: false },
    };
    const state = run(waiting(), typing(0), delta(1, 'Hola'), stopped);
    expect(state.typing).toBe(false);
    expect(state.pending?.replyId).toBe(REPLY);
    expect(streamText(state)).toBe('Hola');
  });

  it('appends deltas as they arrive, into one streaming bot message', () => {
    const state = run(waiting(), typing(0), delta(1, 'Hola'), delta(2, ', '), delta(3, 'Ana.'));
    expect(streamText(state)).toBe('Hola, Ana.');
    const streaming = state.messages.filter((m) => m.streaming);
    expect(streaming).toHaveLength(1);
    expect(streaming[0]?.type).toBe('bot');
  });

  it('orders deltas by seq, whatever order they arrive in', () => {
    const state = run(waiting(), delta(3, 'Ana.'), delta(1, 'Hola'), delta(2, ', '));
    expect(streamText(state)).toBe('Hola, Ana.');
  });

  it('ignores a repeated seq', () => {
    const state = run(waiting(), delta(1, 'Hola'), delta(1, 'Hola'), delta(2, '!'), delta(2, '!'));
    expect(streamText(state)).toBe('Hola!');
  });

  it('counts seqs across event types: a delta reusing the typing seq is a duplicate', () => {
    const state = run(waiting(), typing(0), delta(0, 'dup'), delta(1, 'ok'));
    expect(streamText(state)).toBe('ok');
  });

  it('the final reply replaces the streamed text with the stored message and settles the send', () => {
    const state = run(waiting(), typing(0), delta(1, 'Hola, A'), reply(2, 'Hola, Ana.'));
    expect(state.messages.map((m) => m.id)).toEqual(['m-user', 'm-bot']);
    const bot = state.messages[1];
    expect(bot?.content).toBe('Hola, Ana.');
    expect(bot?.streaming).toBeFalsy();
    expect(bot?.emotion).toBe('happy');
    expect(state.pending).toBeNull();
    expect(state.typing).toBe(false);
    expect(state.emotion).toBe('happy');
    expect(state.streams[REPLY]).toBeUndefined();
  });

  it('a reply without any delta is simply appended', () => {
    const state = run(waiting(), reply(0));
    expect(state.messages.map((m) => m.id)).toEqual(['m-user', 'm-bot']);
  });

  it('drops events that arrive after the reply is final, and a repeated reply', () => {
    const done = run(waiting(), delta(1, 'Hola'), reply(2));
    const after = run(done, delta(3, ' late'), reply(2), typing(4));
    expect(after).toBe(done);
  });

  it('keeps the emotion of chat:emotion for the avatar stage', () => {
    const state = run(waiting(), {
      name: ServerEvent.chatEmotion,
      payload: {
        replyId: REPLY,
        sessionId: SESSION,
        seq: 1,
        emotion: 'calm',
        intensity: 0.4,
        confidence: 0.7,
        mood: 'serene',
      },
    });
    expect(state.emotion).toBe('calm');
  });

  it('keeps every avatar:intent gesture with its timing, so the same gesture twice plays twice', () => {
    const intent = (seq: number, gesture: 'nodding' | null, shouldAnimate = true): ChatServerEvent => ({
      name: ServerEvent.avatarIntent,
      payload: {
        replyId: REPLY,
        sessionId: SESSION,
        seq,
        gesture,
        emotion: 'happy',
        shouldAnimate,
        duration: 2500,
        atMs: 400,
      },
    });
    const once = run(waiting(), intent(1, 'nodding'));
    expect(once.intent).toEqual({ gesture: 'nodding', durationMs: 2500, atMs: 400, key: 1 });
    const twice = run(once, intent(2, 'nodding'));
    expect(twice.intent?.key).toBe(2);
    // An intent that does not animate leaves the last gesture alone.
    expect(run(twice, intent(3, null, false)).intent?.key).toBe(2);
  });

  it('ignores reply events of another session this tab is not waiting for', () => {
    const state = run({ ...initialConversation, activeSessionId: 'other' }, delta(1, 'x'), reply(2));
    expect(state.messages).toHaveLength(0);
  });

  it('follows a reply that arrives before the ack (pending send without a replyId yet)', () => {
    const before: ChatData = {
      ...initialConversation,
      activeSessionId: null,
      pending: { clientMessageId: CMID, text: 'Hola', sessionId: null, replyId: null },
    };
    const state = run(before, delta(1, 'Hola'));
    expect(streamText(state)).toBe('Hola');
  });
});

describe('chat:error', () => {
  it('removes an empty stream and adds an error message whose retry keeps the clientMessageId', () => {
    const state = run(
      waiting(),
      typing(0),
      chatError({ replyId: REPLY, clientMessageId: CMID, sessionId: SESSION }),
    );
    expect(state.pending).toBeNull();
    expect(state.typing).toBe(false);
    const last = state.messages.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.content).toBe('Error al procesar el mensaje.');
    expect(last?.retry).toEqual({ clientMessageId: CMID, text: 'Hola', sessionId: SESSION });
    expect(state.messages.some((m) => m.id === streamMessageId(REPLY))).toBe(false);
  });

  it('keeps partial text as an incomplete reply', () => {
    const state = run(waiting(), delta(1, 'Hola'), chatError({ replyId: REPLY }));
    const partial = state.messages.find((m) => m.id === streamMessageId(REPLY));
    expect(partial?.content).toBe('Hola');
    expect(partial?.streaming).toBe(false);
    expect(partial?.isComplete).toBe(false);
  });

  it('offers no retry for an error that is not retryable', () => {
    const state = run(waiting(), chatError({ replyId: REPLY, retryable: false, code: 'invalid_payload' }));
    expect(state.messages.at(-1)?.retry).toBeUndefined();
  });

  it('limit_reached raises the limit banner with the server text', () => {
    const state = run(
      waiting(),
      chatError({
        replyId: REPLY,
        code: 'limit_reached',
        message: 'Has alcanzado el límite de mensajes de tu plan.',
        retryable: false,
      }),
    );
    expect(state.limit).toEqual({ message: 'Has alcanzado el límite de mensajes de tu plan.' });
  });
});

describe('other events', () => {
  it('limit:reached shows the banner', () => {
    const state = run(initialConversation, {
      name: ServerEvent.limitReached,
      payload: {
        kind: 'messages',
        used: 100,
        limit: 100,
        message: 'Has alcanzado el límite de mensajes de tu plan.',
      },
    });
    expect(state.limit?.message).toBe('Has alcanzado el límite de mensajes de tu plan.');
  });

  it('chat:message from another tab is appended once; our own replaces its local copy', () => {
    const base: ChatData = {
      ...initialConversation,
      activeSessionId: SESSION,
      messages: [
        {
          id: localMessageId('c9'),
          type: 'user',
          content: 'Hi',
          timestamp: '',
          clientMessageId: 'c9',
          sending: true,
        },
      ],
    };
    const other = message({ _id: 'm-2', role: 'user', content: 'Desde otra pestaña', clientMessageId: 'c2' });
    const own = message({ _id: 'm-9', role: 'user', content: 'Hi', clientMessageId: 'c9' });
    const state = run(
      base,
      { name: ServerEvent.chatMessage, payload: { message: other } },
      { name: ServerEvent.chatMessage, payload: { message: other } },
      { name: ServerEvent.chatMessage, payload: { message: own } },
    );
    expect(state.messages.map((m) => m.id)).toEqual(['m-9', 'm-2']);
  });
});

describe('conversation context (SPEC.md C-11)', () => {
  it('chat:reply brings the context after the exchange', () => {
    const event = reply(1);
    if (event.name !== ServerEvent.chatReply) throw new Error('unreachable');
    const context = {
      sessionId: SESSION,
      summary: 'Conversación con Ana.',
      topics: ['examen'],
      entities: { names: ['Ana', 'Sara'] },
      keyPoints: ['Mañana tengo un examen.'],
      dominantEmotion: 'calm' as const,
    };
    const state = reduceConversation(waiting(), {
      ...event,
      payload: { ...event.payload, reply: { ...event.payload.reply, sessionContext: context } },
    });
    expect(state.context).toEqual(context);
  });
});
