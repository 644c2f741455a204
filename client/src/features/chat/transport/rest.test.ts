import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialConnection, onServerEvents, useConnection } from '../../../lib/realtime.ts';
import { stubFetch } from '../../../test/fetch.ts';
import { testChatReply, testMessage } from '../../../test/fixtures.ts';
import { CHAT_EVENTS } from '../hooks/use-chat-events.ts';
import { useConversation } from '../store/conversation.ts';
import { useSessions } from '../store/sessions.ts';
import { createRestTransport } from './rest.ts';

/**
 * The REST fallback (ARCHITECTURE §2, SPEC.md V-1): with no socket connected, a text goes to
 * `POST /message` and a note to `POST /message-audio`; each is acknowledged like `chat:send` and
 * its reply is delivered as the `chat:reply` a socket would send. fetch is the test double (the
 * network boundary); the transport, the realtime bus and the stores are real.
 */

const reply = () => testChatReply({ audioUrl: '/audio/m-bot.mp3' });

const note = () => ({
  audio: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm;codecs=opus' }),
  mimeType: 'audio/webm;codecs=opus',
  durationMs: 2300,
  transcriptHint: 'hello there',
});

let stopListening: () => void = () => undefined;
beforeEach(() => {
  useConversation.getState().reset();
  useSessions.getState().reset();
  // No socket: the server answers health checks, so sends go over REST.
  useConnection.setState({ ...initialConnection, health: 'online', socketState: 'disconnected' });
  stopListening = onServerEvents(CHAT_EVENTS, (event) => {
    useConversation.getState().handleEvent(event);
    useSessions.getState().handleEvent(event);
  });
});
afterEach(() => {
  stopListening();
  vi.unstubAllGlobals();
});

describe('the REST transport', () => {
  it('acknowledges POST /message like chat:send, then delivers the reply as chat:reply', async () => {
    const delivered: string[] = [];
    const bodies: unknown[] = [];
    const transport = createRestTransport({
      sendMessage: (body) => {
        bodies.push(body);
        return Promise.resolve(reply());
      },
      postVoice: () => Promise.reject(new Error('unused')),
      publish: (event) => delivered.push(`${event.replyId}:${event.message.audioUrl}`),
    });
    const ack = await transport.send({ clientMessageId: 'c1', message: 'Hola', avatarId: 'witch' });
    expect(bodies).toEqual([{ message: 'Hola', clientMessageId: 'c1', avatarId: 'witch' }]);
    expect(ack).toMatchObject({
      ok: true,
      data: {
        sessionId: 's-new',
        replyId: 'm-bot',
        duplicate: false,
        message: { _id: 'm-user', role: 'user', content: 'Hola', clientMessageId: 'c1' },
      },
    });
    // After the ack, as on a socket (SPEC.md C-1).
    expect(delivered).toEqual([]);
    await vi.waitFor(() => expect(delivered).toEqual(['m-bot:/audio/m-bot.mp3']));
  });

  it('a text sent over REST keeps the reply’s audio, to play again from the message (issue 11)', async () => {
    const calls = stubFetch(({ method, path }) =>
      method === 'POST' && path === '/message' ? { body: reply() } : undefined,
    );
    expect(await useConversation.getState().send('Hola')).toBe(true);
    await vi.waitFor(() => expect(useConversation.getState().pending).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/message']);
    const state = useConversation.getState();
    expect(state.messages).toMatchObject([
      { id: 'm-user', type: 'user', content: 'Hola', sending: false },
      { id: 'm-bot', type: 'bot', content: '¡Hola! ¿Qué tal?', audioUrl: '/audio/m-bot.mp3' },
    ]);
    expect(state.activeSessionId).toBe('s-new');
    expect(state.typing).toBe(false);
  });

  it('V-1 a voice note goes over POST /message-audio: the stored note and the reply appear', async () => {
    const calls = stubFetch(({ method, path }) =>
      method === 'POST' && path === '/message-audio'
        ? {
            body: {
              ...reply(),
              userMessage: testMessage({ content: 'hello there', audioUrl: '/audio/n.webm' }),
              transcription: 'hello there',
            },
          }
        : undefined,
    );
    expect(await useConversation.getState().sendVoiceNote(note())).toBe(true);
    await vi.waitFor(() => expect(useConversation.getState().pending).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/message-audio']);
    expect(useConversation.getState().messages).toMatchObject([
      { id: 'm-user', type: 'user', content: 'hello there', sending: false, audioUrl: '/audio/n.webm' },
      { id: 'm-bot', type: 'bot', content: '¡Hola! ¿Qué tal?' },
    ]);
  });

  it('V-3 a note refused over REST leaves no placeholder and an error that can retry', async () => {
    stubFetch(() => ({
      status: 502,
      body: { error: { code: 'voice_note_failed', message: 'Error al procesar la nota de voz.' } },
    }));
    await useConversation.getState().sendVoiceNote(note());
    const state = useConversation.getState();
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]).toMatchObject({
      type: 'error',
      voiceError: true,
      content: 'Error al procesar la nota de voz.',
    });
    expect(state.messages[0]?.retry?.voice).toBeDefined();
    expect(state.pending).toBeNull();
  });
});
