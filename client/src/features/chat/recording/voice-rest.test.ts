import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatReply } from '@alma/protocol';
import { ApiError } from '../../../lib/api.ts';
import { stubFetch } from '../../../test/fetch.ts';
import { testMessage } from '../../../test/fixtures.ts';
import { useChat, type ChatTransport } from '../store.ts';
import { postVoiceNote, voiceRoute, type PostVoiceNoteDeps } from './voice-rest.ts';

/**
 * The REST fallback for voice notes (SPEC.md V-1): with no connected socket, a note goes to
 * `POST /message-audio` as multipart, and the reply it answers appears like a text reply over REST.
 * fetch is the test double (the network boundary); the store is real.
 */

const note = () => ({
  audio: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm;codecs=opus' }),
  mimeType: 'audio/webm;codecs=opus',
  durationMs: 2300,
  transcriptHint: 'hello there',
});

const reply: ChatReply = {
  reply: '¡Hola! ¿Qué tal?',
  emotion: 'happy',
  emotionalState: { emotion: 'happy', intensity: 0.6, mood: 'warm' },
  animationIntent: { shouldAnimate: false, gesture: null, emotion: 'happy', context: { duration: 3000 } },
  language: 'es',
  userLanguage: 'es',
  audioUrl: null,
  emotionAnalysis: { emotion: 'happy', intensity: 0.6, confidence: 0.8 },
  personality: 'default',
  sessionContext: {
    sessionId: 's-new',
    summary: '',
    topics: [],
    entities: { names: [] },
    keyPoints: [],
    dominantEmotion: null,
  },
  sessionId: 's-new',
  messageId: 'm-bot',
  userMessageId: 'm-user',
  isComplete: true,
};

describe('voiceRoute', () => {
  it('V-1 uses the socket only when it is connected and can carry chat:voice', () => {
    const voice = () => Promise.reject(new Error('unused'));
    expect(voiceRoute({ isConnected: () => true, voice })).toBe('socket');
    expect(voiceRoute({ isConnected: () => false, voice })).toBe('rest');
    expect(voiceRoute({ isConnected: () => true })).toBe('rest');
    expect(voiceRoute(null)).toBe('rest');
  });
});

describe('postVoiceNote', () => {
  function deps(
    answers: Response[],
    token = 't1',
  ): PostVoiceNoteDeps & { seen: { init: RequestInit; url: string }[] } {
    const seen: { init: RequestInit; url: string }[] = [];
    let current = token;
    return {
      seen,
      fetch: (input, init) => {
        seen.push({
          url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          init: init ?? {},
        });
        const next = answers.shift();
        return next ? Promise.resolve(next) : Promise.reject(new TypeError('network down'));
      },
      getToken: () => current,
      refresh: () => {
        current = 't2';
        return Promise.resolve(true);
      },
      text: (key) => key,
    };
  }
  const input = {
    clientMessageId: 'c-1',
    note: note(),
    personality: 'default' as const,
    sessionId: 's1',
    language: 'en' as const,
  };

  it('V-1 posts the multipart form with the bearer token and the note language', async () => {
    const d = deps([
      Response.json({
        ...reply,
        userMessage: testMessage({ audioUrl: '/audio/a.webm' }),
        transcription: 'Hola',
      }),
    ]);
    const answer = await postVoiceNote(input, d);
    expect(answer.transcription).toBe('Hola');
    const sent = d.seen[0];
    expect(sent?.url).toBe('/message-audio');
    expect(sent?.init.method).toBe('POST');
    expect(sent?.init.headers).toMatchObject({ Authorization: 'Bearer t1', 'Accept-Language': 'en' });
    const form = sent?.init.body as FormData;
    expect(form.get('clientMessageId')).toBe('c-1');
    expect(form.get('language')).toBe('en');
    expect(form.get('sessionId')).toBe('s1');
    expect(form.get('personality')).toBe('default');
    expect(form.get('transcriptHint')).toBe('hello there');
    const audio = form.get('audio') as File;
    expect(audio.name).toBe('note.webm');
    expect(audio.size).toBe(7);
  });

  it('V-1 refreshes once after a 401; an error body becomes an ApiError with its code', async () => {
    const refused = Response.json({ error: { code: 'token_expired', message: 'expired' } }, { status: 401 });
    const failed = Response.json(
      { error: { code: 'voice_note_failed', message: 'Error al procesar la nota de voz.' } },
      { status: 502 },
    );
    const d = deps([refused, failed]);
    const error = await postVoiceNote(input, d).catch((e: unknown) => e);
    expect(d.seen.map((s) => (s.init.headers as Record<string, string>).Authorization)).toEqual([
      'Bearer t1',
      'Bearer t2',
    ]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('voice_note_failed');
    const down = await postVoiceNote(input, deps([])).catch((e: unknown) => e);
    expect((down as ApiError).code).toBe('network_error');
  });
});

describe('sendVoiceNote without a socket', () => {
  beforeEach(() => {
    useChat.getState().reset();
    useChat.setState({
      health: 'online',
      socketState: 'disconnected',
      loadSessions: () => Promise.resolve(),
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useChat.getState().setTransport(null);
  });

  it('V-1 goes over POST /message-audio: the stored note and the reply appear, no chat:voice', async () => {
    const voice = vi.fn();
    const transport: ChatTransport = {
      isConnected: () => false,
      send: () => Promise.reject(new Error('unused')),
      voice,
      watch: () => undefined,
      cancel: () => Promise.resolve(),
    };
    useChat.getState().setTransport(transport);
    const calls = stubFetch(({ method, path }) =>
      method === 'POST' && path === '/message-audio'
        ? {
            body: {
              ...reply,
              userMessage: testMessage({ content: 'hello there', audioUrl: '/audio/n.webm' }),
              transcription: 'hello there',
            },
          }
        : undefined,
    );
    expect(await useChat.getState().sendVoiceNote(note())).toBe(true);
    expect(voice).not.toHaveBeenCalled();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /message-audio']);
    const state = useChat.getState();
    expect(state.messages).toMatchObject([
      { id: 'm-user', type: 'user', content: 'hello there', sending: false },
      { id: 'm-bot', type: 'bot', content: '¡Hola! ¿Qué tal?' },
    ]);
    expect(state.pending).toBeNull();
    expect(state.activeSessionId).toBe('s-new');
  });

  it('V-3 a refused note over REST leaves no placeholder and an error that can retry', async () => {
    useChat.getState().setTransport(null);
    stubFetch(() => ({
      status: 501,
      body: { error: { code: 'transcription_not_configured', message: 'Transcripción no configurada' } },
    }));
    await useChat.getState().sendVoiceNote(note());
    const state = useChat.getState();
    expect(state.messages).toHaveLength(1);
    expect(state.messages[0]).toMatchObject({
      type: 'error',
      voiceError: true,
      content: 'Transcripción no configurada',
    });
    expect(state.messages[0]?.retry?.voice).toBeDefined();
    expect(state.pending).toBeNull();
  });
});
