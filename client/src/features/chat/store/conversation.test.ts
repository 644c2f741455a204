import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerEvent, type Ack, type ClientEvent, type ClientResult } from '@alma/protocol';
import { usePreferences } from '../../../lib/preferences.ts';
import { useConnection } from '../../../lib/realtime.ts';
import { useSession } from '../../../lib/session.ts';
import { stubFetch } from '../../../test/fetch.ts';
import { testMessage as stored, testUser } from '../../../test/fixtures.ts';
import { pinTransport } from '../transport/pick.ts';
import type { ChatTransport } from '../transport/types.ts';
import { useConversation as useChat } from './conversation.ts';
import { useSessions } from './sessions.ts';

/*
 * The transport is a test double of the socket (the network boundary): it records what the
 * store emits and answers with the ack a test chooses. The store and reducer are real.
 */

type SendResult = Ack<ClientResult<typeof ClientEvent.chatSend>>;

function fakeTransport(answers: SendResult[]) {
  const sent: Parameters<ChatTransport['send']>[0][] = [];
  const watched: string[] = [];
  const cancelled: Parameters<ChatTransport['cancel']>[0][] = [];
  const transport: ChatTransport = {
    kind: 'socket',
    send: (payload) => {
      sent.push(payload);
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected send');
      return Promise.resolve(answer);
    },
    voice: () => Promise.reject(new Error('unexpected voice note')),
    watch: (sessionId) => void watched.push(sessionId),
    cancel: (payload) => {
      cancelled.push(payload);
      return Promise.resolve();
    },
  };
  pinTransport(transport);
  return { transport, sent, watched, cancelled };
}

beforeEach(() => {
  useChat.getState().reset();
  useSessions.getState().reset();
  useConnection.setState({ health: 'online', socketState: 'connected' });
});
afterEach(() => pinTransport(null));

describe('send', () => {
  it('trims the text, shows it at once and sends it with a fresh clientMessageId', async () => {
    const { sent, watched } = fakeTransport([
      {
        ok: true,
        data: {
          message: stored({ clientMessageId: 'x' }),
          sessionId: 's-new',
          replyId: 'r1',
          duplicate: false,
        },
      },
    ]);
    const done = useChat.getState().send('  Hola  ');
    const optimistic = useChat.getState().messages[0];
    expect(optimistic?.content).toBe('Hola');
    expect(optimistic?.sending).toBe(true);
    expect(useChat.getState().typing).toBe(true);
    await done;

    expect(sent).toHaveLength(1);
    expect(sent[0]?.message).toBe('Hola');
    expect(sent[0]?.sessionId).toBeUndefined();
    expect(sent[0]?.clientMessageId).toMatch(/^[\w-]+$/);
    const state = useChat.getState();
    // Sending without a session creates one: the ack's session becomes active and watched.
    expect(state.activeSessionId).toBe('s-new');
    expect(watched).toEqual(['s-new']);
    expect(state.pending).toMatchObject({ replyId: 'r1', sessionId: 's-new' });
    expect(state.messages[0]?.id).toBe('m-user');
    expect(state.messages[0]?.sending).toBe(false);
  });

  it('ignores empty or whitespace-only text and anything while a send awaits its ack', async () => {
    const { sent } = fakeTransport([]);
    expect(await useChat.getState().send('   ')).toBe(false);
    useChat.setState({ pending: { clientMessageId: 'c', text: 'x', sessionId: null, replyId: null } });
    expect(await useChat.getState().send('otra')).toBe(false);
    expect(sent).toHaveLength(0);
  });

  it('barge-in: a send while a reply is being written cancels it first (SPEC.md S-2)', async () => {
    const { sent, cancelled } = fakeTransport([
      { ok: true, data: { message: stored(), sessionId: 's-new', replyId: 'r1', duplicate: false } },
      {
        ok: true,
        data: { message: stored({ _id: 'm-2' }), sessionId: 's-new', replyId: 'r2', duplicate: false },
      },
    ]);
    await useChat.getState().send('Hola');
    expect(useChat.getState().pending?.replyId).toBe('r1');
    expect(await useChat.getState().send('otra')).toBe(true);
    // Nothing was played (no Web Audio in jsdom), so no heardUntilMs is claimed.
    expect(cancelled).toEqual([{ replyId: 'r1' }]);
    expect(sent.map((p) => p.message)).toEqual(['Hola', 'otra']);
    expect(useChat.getState().pending?.replyId).toBe('r2');
  });

  it('while offline, adds the local "server unavailable" message and sends nothing', async () => {
    const { sent } = fakeTransport([]);
    useConnection.setState({ health: 'offline', socketState: 'disconnected' });
    expect(await useChat.getState().send('Hola')).toBe(false);
    expect(sent).toHaveLength(0);
    expect(useChat.getState().messages).toMatchObject([
      { type: 'system', contentKey: 'chat.serverUnavailable' },
    ]);
  });

  it('a refused ack adds an error message; retry re-sends with the same clientMessageId', async () => {
    const { sent } = fakeTransport([
      { ok: false, error: { code: 'unavailable', message: 'El servidor no está disponible.' } },
      { ok: true, data: { message: stored(), sessionId: 's-new', replyId: 'r1', duplicate: true } },
    ]);
    await useChat.getState().send('Hola');

    let state = useChat.getState();
    const error = state.messages.at(-1);
    expect(error?.type).toBe('error');
    expect(error?.content).toBe('El servidor no está disponible.');
    expect(state.pending).toBeNull();
    expect(state.typing).toBe(false);

    await useChat.getState().retry(error?.id ?? '');
    state = useChat.getState();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.clientMessageId).toBe(sent[0]?.clientMessageId);
    expect(sent[1]?.message).toBe('Hola');
    expect(state.messages.some((m) => m.type === 'error')).toBe(false);
    expect(state.messages.filter((m) => m.type === 'user')).toHaveLength(1);
    expect(state.pending?.replyId).toBe('r1');
  });

  it('a limit_reached ack shows the limit banner instead of a retry', async () => {
    fakeTransport([
      {
        ok: false,
        error: { code: 'limit_reached', message: 'Has alcanzado el límite de mensajes de tu plan.' },
      },
    ]);
    await useChat.getState().send('Hola');
    const state = useChat.getState();
    expect(state.limit?.message).toBe('Has alcanzado el límite de mensajes de tu plan.');
    expect(state.messages.at(-1)?.retry).toBeUndefined();
    useChat.getState().dismissLimit();
    expect(useChat.getState().limit).toBeNull();
  });

  it('the streamed reply then settles the send (full round through handleServerEvent)', async () => {
    fakeTransport([
      { ok: true, data: { message: stored(), sessionId: 's-new', replyId: 'r1', duplicate: false } },
    ]);
    await useChat.getState().send('Hola');
    const { handleEvent: handleServerEvent } = useChat.getState();
    handleServerEvent({
      name: ServerEvent.chatTyping,
      payload: { replyId: 'r1', sessionId: 's-new', seq: 0, typing: true },
    });
    handleServerEvent({
      name: ServerEvent.chatDelta,
      payload: { replyId: 'r1', sessionId: 's-new', seq: 1, text: '¡Hola' },
    });
    handleServerEvent({
      name: ServerEvent.chatDelta,
      payload: { replyId: 'r1', sessionId: 's-new', seq: 2, text: '!' },
    });
    expect(useChat.getState().messages.at(-1)).toMatchObject({ content: '¡Hola!', streaming: true });
    expect(useChat.getState().pending).not.toBeNull();
  });
});

describe('personality change (spec §4: online posted and confirmed, offline applied locally)', () => {
  const serverNote = stored({
    _id: 'm-system',
    sessionId: 's1',
    role: 'system',
    content: 'Personalidad cambiada a Formal.',
    personality: 'formal',
  });

  beforeEach(() => {
    localStorage.clear();
    useChat.setState({ activeSessionId: 's1', personality: 'default', messages: [] });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('online: POST /personality, and the server’s system message appears once', async () => {
    const calls = stubFetch(({ method, path }) =>
      method === 'POST' && path === '/personality'
        ? { body: { success: true, personality: 'formal', message: serverNote } }
        : undefined,
    );
    await useChat.getState().changePersonality('formal');
    expect(calls).toEqual([
      { method: 'POST', path: '/personality', body: { sessionId: 's1', personality: 'formal' } },
    ]);
    const state = useChat.getState();
    expect(state.personality).toBe('formal');
    expect(localStorage.getItem('personality')).toBe('formal');
    expect(state.messages).toMatchObject([{ id: 'm-system', type: 'system', content: serverNote.content }]);
    // The same message also comes to the session's room as chat:message: not shown twice.
    state.handleEvent({ name: ServerEvent.chatMessage, payload: { message: serverNote } });
    expect(useChat.getState().messages).toHaveLength(1);
  });

  it('offline: nothing is posted; a local message says it was applied offline', async () => {
    const calls = stubFetch(() => undefined);
    useConnection.setState({ health: 'offline', socketState: 'disconnected' });
    await useChat.getState().changePersonality('technical');
    expect(calls).toEqual([]);
    const state = useChat.getState();
    expect(state.personality).toBe('technical');
    expect(localStorage.getItem('personality')).toBe('technical');
    expect(state.messages).toMatchObject([
      {
        type: 'system',
        contentKey: 'chat.personalityChangedOffline',
        contentParams: { personality: 'technical' },
      },
    ]);
  });

  it('choosing the current personality changes nothing', async () => {
    const calls = stubFetch(() => undefined);
    await useChat.getState().changePersonality('default');
    expect(calls).toEqual([]);
    expect(useChat.getState().messages).toEqual([]);
  });
});

describe('session context on select (SPEC.md C-11)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('loads the stored context with the first page of messages', async () => {
    const context = {
      sessionId: 's2',
      summary: 'Conversation with Sam.',
      topics: ['new job'],
      entities: { names: ['Sam'] },
      keyPoints: ['I start a new job on Monday.'],
      dominantEmotion: 'excited',
    };
    stubFetch(({ path }) => {
      if (path === '/chat/sessions/s2/context') return { body: context };
      if (path === '/chat/messages')
        return { body: { items: [], total: 0, page: 1, pageSize: 50, hasMore: false } };
      return undefined;
    });
    await useChat.getState().open('s2');
    await vi.waitFor(() => expect(useChat.getState().context).toEqual(context));
  });
});

describe('what a send carries (issue 11)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    useSession.getState().clear();
  });

  it('the avatar on screen, so the export can replay it (SPEC.md C-13)', async () => {
    useSession.getState().setSession({ token: 't', refreshToken: 'r', user: testUser });
    usePreferences.getState().save(testUser.id, { avatar: 'witch' });
    const { sent } = fakeTransport([
      { ok: true, data: { message: stored(), sessionId: 's-new', replyId: 'r1', duplicate: false } },
    ]);
    await useChat.getState().send('Hola');
    expect(sent[0]?.avatarId).toBe('witch');
  });

  it('a session opened on a new device speaks with its own personality, and the next send keeps it', async () => {
    localStorage.removeItem('personality');
    useChat.getState().reset();
    expect(useChat.getState().personality).toBe('default');
    stubFetch(({ path }) =>
      path === '/chat/messages'
        ? { body: { items: [], total: 0, page: 1, pageSize: 50, hasMore: false } }
        : undefined,
    );
    useSessions.setState({
      loaded: true,
      sessions: [
        {
          sessionId: 's1',
          title: 'Trabajo',
          personality: 'formal',
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-01-01T00:00:00.000Z',
          messageCount: 4,
          dominantEmotion: null,
        },
      ],
    });
    const { sent } = fakeTransport([
      {
        ok: true,
        data: { message: stored({ sessionId: 's1' }), sessionId: 's1', replyId: 'r1', duplicate: false },
      },
    ]);
    await useSessions.getState().select('s1');
    expect(useChat.getState().personality).toBe('formal');
    await useChat.getState().send('Buenos días');
    expect(sent[0]).toMatchObject({ sessionId: 's1', personality: 'formal' });
  });
});

describe('a voice note nothing here can transcribe (issue 11)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('stays in the conversation, playable, instead of being lost behind an error', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:kept-note', revokeObjectURL: () => undefined }),
    );
    const { transport } = fakeTransport([]);
    pinTransport({
      ...transport,
      voice: () =>
        Promise.resolve({
          ok: false,
          error: { code: 'transcription_not_configured', message: 'La transcripción no está configurada.' },
        }),
    });
    const note = { audio: new Blob([new Uint8Array([1, 2, 3])]), mimeType: 'audio/webm', durationMs: 1800 };
    expect(await useChat.getState().sendVoiceNote(note)).toBe(true);
    const state = useChat.getState();
    expect(state.pending).toBeNull();
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]).toMatchObject({
      type: 'user',
      sending: false,
      contentKey: 'voiceNote.notTranscribed',
      keptNote: { url: 'blob:kept-note', note },
    });
    expect(state.messages.some((m) => m.type === 'error')).toBe(false);
  });
});
