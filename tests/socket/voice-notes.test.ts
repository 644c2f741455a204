import { ClientEvent, ServerEvent, errorMessage, routes, type AuthSession } from '@alma/protocol';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectPocketsphinx } from '../../server/src/engines/transcription/pocketsphinx.ts';
import {
  librivoxAvailable,
  librivoxVoiceNote,
  loadLibrivoxClips,
} from '../../server/src/test-support/librivox.ts';
import { makeVoiceNote, type VoiceNoteFixture } from '../../server/src/test-support/voice-note.ts';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/**
 * Voice notes end to end (SPEC.md V-1…V-6) over a real socket and real HTTP: a real webm/opus
 * note (espeak speech, libopus, mediabunny), the browser's transcript as the transcriber
 * (TRANSCRIBE_ENGINE=auto with no provider), and `none` for the refusal.
 */
let server: TestServer;
let refusing: TestServer;
let user: AuthSession;
let note: VoiceNoteFixture;
const clients: TestClient[] = [];
const connect = (url: string, token: string) => {
  const c = connectClient(url, token);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  note = await makeVoiceNote('webm');
  server = await startTestServer({ REPLY_TOKEN_DELAY_MS: '1' });
  refusing = await startTestServer({ TRANSCRIBE_ENGINE: 'none' });
  user = await registerUser(server.url, { name: 'Lucía' });
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
  await refusing.dispose();
});

describe('chat:voice', () => {
  it('V-1/V-4/V-5 stores the transcript with the audio, reports progress, replies and counts the minutes', async () => {
    const c = connect(server.url, user.token);
    await c.connected();
    const ack = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-1',
      audio: note.data,
      mimeType: 'audio/webm;codecs=opus',
      durationMs: 99_000, // the client's figure is not trusted: the decoded duration counts
      transcriptHint: 'Hola, esta es una nota de voz',
    });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    expect(ack.data.message).toMatchObject({
      role: 'user',
      content: 'Hola, esta es una nota de voz',
      clientMessageId: 'note-1',
    });
    expect(ack.data.message.audioUrl).toMatch(/^\/audio\/[\w-]+\.webm$/);
    const progress = c.events
      .filter((e) => e.event === ServerEvent.chatTranscription)
      .map((e) => e.payload as { progress: number; text?: string });
    expect(progress.map((p) => p.progress)).toEqual([10, 50, 100]);
    expect(progress.at(-1)?.text).toBe('Hola, esta es una nota de voz');
    await c.waitForReplyEnd(ack.data.replyId);
    expect(c.events.some((e) => e.event === ServerEvent.chatDelta)).toBe(true);

    const audio = await fetch(new URL(ack.data.message.audioUrl ?? '', server.url));
    expect(audio.status).toBe(200);
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(note.data);

    const usage = await apiClient(server.url, { token: user.token })(routes.account.usage);
    expect(usage.usage.voiceMinutesThisMonth).toBeCloseTo(Math.round(note.durationMs / 6000) / 10, 5);
    expect(usage.usage.voiceMinutesThisMonth).toBeLessThan(1);

    // A retry with the same clientMessageId stores nothing new.
    const again = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-1',
      audio: note.data,
      mimeType: 'audio/webm',
      durationMs: 2000,
      transcriptHint: 'Hola, esta es una nota de voz',
    });
    expect(again).toMatchObject({
      ok: true,
      data: { duplicate: true, message: { _id: ack.data.message._id } },
    });
  });

  it('V-1/C-13 a note carries avatar, voice and personality like a typed send: the export shows them', async () => {
    const someone = await registerUser(server.url);
    const c = connect(server.url, someone.token);
    await c.connected();
    const ack = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-avatar-1',
      audio: note.data,
      mimeType: 'audio/webm;codecs=opus',
      durationMs: 2000,
      transcriptHint: 'Hola, te mando una nota',
      avatarId: 'witch',
      voiceId: 'es-mateo',
      personality: 'creative',
    });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    await c.waitForReplyEnd(ack.data.replyId);
    const call = apiClient(server.url, { token: someone.token });
    const doc = await call(routes.chat.exportSession, { params: { id: ack.data.sessionId } });
    expect(doc.messages.map((m) => [m.role, m.avatarId, m.voiceId, m.personality])).toEqual([
      ['user', 'witch', 'es-mateo', null],
      ['assistant', 'witch', 'es-mateo', 'creative'],
    ]);
  });

  it('V-3 without a hint and without a provider: transcription_not_configured, nothing stored', async () => {
    const someone = await registerUser(server.url);
    const c = connect(server.url, someone.token);
    await c.connected();
    const ack = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-2',
      audio: note.data,
      mimeType: 'audio/webm',
      durationMs: 2000,
    });
    expect(ack).toMatchObject({ ok: false, error: { code: 'transcription_not_configured' } });
    const sessions = await apiClient(server.url, { token: someone.token })(routes.chat.listSessions);
    expect(JSON.stringify(sessions)).not.toContain('note-2');
    const usage = await apiClient(server.url, { token: someone.token })(routes.account.usage);
    expect(usage.usage).toMatchObject({ messagesThisMonth: 0, voiceMinutesThisMonth: 0 });

    const other = await registerUser(refusing.url);
    const r = connect(refusing.url, other.token);
    await r.connected();
    const refused = await r.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-3',
      audio: note.data,
      mimeType: 'audio/webm',
      durationMs: 2000,
      transcriptHint: 'hola',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'transcription_not_configured' } });
  });

  it('V-2 a non-audio or truncated file is refused with its code, in Spanish, nothing stored', async () => {
    const someone = await registerUser(server.url);
    const c = connect(server.url, someone.token);
    await c.connected();
    const text = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-4',
      audio: new TextEncoder().encode('renamed.webm but text'),
      mimeType: 'audio/webm',
      durationMs: 2000,
      transcriptHint: 'hola',
    });
    expect(text).toMatchObject({ ok: false, error: { code: 'unsupported_audio' } });
    const truncated = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'note-5',
      audio: note.data.slice(0, 40),
      mimeType: 'audio/webm',
      durationMs: 2000,
      transcriptHint: 'hola',
    });
    expect(truncated).toMatchObject({ ok: false, error: { code: 'invalid_audio' } });
    const usage = await apiClient(server.url, { token: someone.token })(routes.account.usage);
    expect(usage.usage).toMatchObject({ messagesThisMonth: 0, voiceMinutesThisMonth: 0 });
  });
});

describe('POST /message-audio', () => {
  const post = (token: string, form: FormData) =>
    fetch(new URL('/message-audio', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' },
      body: form,
    });

  it('V-1 multipart: answers the reply with the stored voice note', async () => {
    const form = new FormData();
    form.append(
      'audio',
      new Blob([note.data as Uint8Array<ArrayBuffer>], { type: 'audio/webm' }),
      'note.webm',
    );
    form.append('personality', 'default');
    form.append('clientMessageId', 'rest-note-1');
    form.append('transcriptHint', 'Buenas tardes');
    form.append('avatarId', 'robotina');
    form.append('voiceId', 'es-lucia');
    const res = await post(user.token, form);
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const parsed = routes.voiceNotes.messageAudio.response.parse(body);
    expect(parsed.transcription).toBe('Buenas tardes');
    expect(parsed.userMessage).toMatchObject({ content: 'Buenas tardes', role: 'user' });
    expect(parsed.userMessage.audioUrl).toMatch(/^\/audio\/.+\.webm$/);
    expect(parsed.reply.length).toBeGreaterThan(0);
    // S-4: the reply's own spoken audio, as over the socket.
    expect(parsed.audioUrl).toBe(`/audio/${parsed.messageId}.mp3`);
    expect((await fetch(new URL(parsed.audioUrl ?? '', server.url))).status).toBe(200);
    // C-13: the avatar and voice the form carried are on the note and its reply.
    const call = apiClient(server.url, { token: user.token });
    const doc = await call(routes.chat.exportSession, { params: { id: parsed.sessionId } });
    const exported = doc.messages.filter(
      (m) => m._id === parsed.userMessage._id || m._id === parsed.messageId,
    );
    expect(exported.map((m) => [m.role, m.avatarId, m.voiceId])).toEqual([
      ['user', 'robotina', 'es-lucia'],
      ['assistant', 'robotina', 'es-lucia'],
    ]);
  });

  /** The note, then what makes the form one the route refuses. */
  const HOSTILE_FORMS = {
    'a second file part': {
      field: 'audio',
      code: 'oneFile',
      add: (form: FormData, blob: Blob) => form.append('audio', blob, 'again.webm'),
    },
    'too many fields': {
      field: 'body',
      code: 'tooManyFields',
      add: (form: FormData) => {
        for (let i = 0; i < 12; i++) form.append(`extra${i}`, 'x');
      },
    },
  } as const;
  it.each([
    ['a second file part', 'es', 'Envía un solo archivo'],
    ['a second file part', 'en', 'Send only one file'],
    ['too many fields', 'es', 'El formulario tiene demasiados campos'],
    ['too many fields', 'en', 'The form has too many fields'],
  ] as const)('V-1 %s is refused as such (%s), nothing stored', async (kind, language, text) => {
    const someone = await registerUser(server.url);
    const audioFiles = () =>
      existsSync(join(server.dataDir, 'audio')) ? readdirSync(join(server.dataDir, 'audio')) : [];
    const filesBefore = audioFiles().length;
    const form = new FormData();
    const blob = new Blob([note.data as Uint8Array<ArrayBuffer>], { type: 'audio/webm' });
    form.append('transcriptHint', 'hola');
    form.append('audio', blob, 'note.webm');
    const hostile = HOSTILE_FORMS[kind];
    hostile.add(form, blob);
    const res = await fetch(new URL('/message-audio', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${someone.token}`, 'accept-language': language },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: 'validation_failed',
        message: errorMessage(language, 'validation_failed'),
        errors: [{ field: hostile.field, code: hostile.code, message: text }],
      },
    });
    const call = apiClient(server.url, { token: someone.token });
    expect((await call(routes.chat.listSessions)).sessions).toEqual([]);
    expect(audioFiles()).toHaveLength(filesBefore);
    expect((await call(routes.account.usage)).usage).toMatchObject({
      messagesThisMonth: 0,
      voiceMinutesThisMonth: 0,
    });
  });

  it('V-2 refuses a missing or non-audio file with a clear code', async () => {
    const empty = new FormData();
    empty.append('transcriptHint', 'hola');
    const missing = await post(user.token, empty);
    expect(missing.status).toBe(400);
    const form = new FormData();
    form.append('audio', new Blob(['%PDF-1.4 not audio'], { type: 'audio/webm' }), 'note.webm');
    form.append('transcriptHint', 'hola');
    const res = await post(user.token, form);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: { code: 'unsupported_audio', message: expect.stringContaining('formato') as unknown },
    });
  });
});

/**
 * English notes through Debian's pocketsphinx (TRANSCRIBE_ENGINE=auto picks it when installed):
 * read speech from pocketsphinx-testdata, as Chrome's webm/opus over the socket and Firefox's
 * ogg/opus over REST; no browser transcript, so every word comes from the server's recogniser.
 */
const sphinx = detectPocketsphinx();
const sphinxReady = sphinx.ok && librivoxAvailable();
if (!sphinxReady) {
  console.warn(
    `pocketsphinx voice-note tests skipped: ${sphinx.ok ? 'pocketsphinx-testdata is not installed' : sphinx.reason}`,
  );
}

describe.skipIf(!sphinxReady)('English voice notes transcribed by pocketsphinx', () => {
  const clip = () => {
    const found = loadLibrivoxClips().find((c) => c.id.endsWith('0870'));
    if (!found) throw new Error('clip 0870 missing');
    return found;
  };

  it('V-3 chat:voice with language en: the stored transcript has the spoken words', async () => {
    const someone = await registerUser(server.url);
    const c = connect(server.url, someone.token);
    await c.connected();
    const ack = await c.request(
      ClientEvent.chatVoice,
      {
        clientMessageId: 'sphinx-1',
        audio: await librivoxVoiceNote(clip(), 'webm'),
        mimeType: 'audio/webm;codecs=opus',
        durationMs: 7100,
        language: 'en',
      },
      // pocketsphinx on 7 s of speech takes half a minute on the shared, loaded machine.
      60_000,
    );
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    expect(ack.data.message.content).toMatch(/\bconsider\b/);
    expect(ack.data.message.content).toMatch(/\bpower\b/);
    await c.waitForReplyEnd(ack.data.replyId);
  });

  it('V-1/V-3 POST /message-audio with Accept-Language en: ogg/opus transcribed and replied to', async () => {
    const someone = await registerUser(server.url);
    const form = new FormData();
    const data = await librivoxVoiceNote(clip(), 'ogg');
    form.append('audio', new Blob([data as Uint8Array<ArrayBuffer>], { type: 'audio/ogg' }), 'note.ogg');
    form.append('clientMessageId', 'sphinx-rest-1');
    const res = await fetch(new URL('/message-audio', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${someone.token}`, 'accept-language': 'en-GB,en;q=0.9' },
      body: form,
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const parsed = routes.voiceNotes.messageAudio.response.parse(body);
    expect(parsed.transcription).toMatch(/\bconsider\b.*\bpower\b/);
    expect(parsed.userMessage.audioUrl).toMatch(/^\/audio\/.+\.ogg$/);
    expect(parsed.reply.length).toBeGreaterThan(0);
  });
});
