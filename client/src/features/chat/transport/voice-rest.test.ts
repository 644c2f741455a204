import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { testChatReply, testMessage } from '../../../test/fixtures.ts';
import { postVoiceNote, type PostVoiceNoteDeps } from './voice-rest.ts';

/**
 * `POST /message-audio` (SPEC.md V-1): the multipart request the REST transport sends for a voice
 * note. fetch is the test double (the network boundary).
 */

const note = () => ({
  audio: new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm;codecs=opus' }),
  mimeType: 'audio/webm;codecs=opus',
  durationMs: 2300,
  transcriptHint: 'hello there',
});

const reply = testChatReply();

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
    ...note(),
    personality: 'default' as const,
    sessionId: 's1',
    language: 'en' as const,
    avatarId: 'witch',
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
    expect(form.get('avatarId')).toBe('witch');
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
