import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ClientEvent, ERROR_MESSAGES, routes, type AuthSession, type Language } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileAudioCorpus, type HostileAudio } from '../../server/src/test-support/hostile-audio.ts';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/**
 * Issue 11, "uploads that cannot take the server down": the hostile audio corpus (cut, padded,
 * corrupt — a bad Ogg page CRC —, lying headers, declared sizes of gigabytes; generated, never
 * committed) sent as voice notes over REST (`POST /message-audio`) and over the socket
 * (`chat:voice`). Each file is refused with its status, code and message in Spanish and English
 * (SPEC.md V-2), and nothing is left: no audio file on disk, no message, no minutes counted. A
 * browser transcript comes with each note, so a file that got through would be stored and seen.
 */
let server: TestServer;
let user: AuthSession;
let corpus: HostileAudio[] = [];
const clients: TestClient[] = [];

const audioOnDisk = () => {
  try {
    return readdirSync(join(server.dataDir, 'audio')).length;
  } catch {
    return 0;
  }
};

beforeAll(async () => {
  corpus = await hostileAudioCorpus();
  server = await startTestServer({});
  user = await registerUser(server.url, { name: 'Mallory' });
}, 60_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

const nothingStored = async () => {
  expect(audioOnDisk()).toBe(0);
  const api = apiClient(server.url, { token: user.token });
  expect((await api(routes.account.usage)).usage).toMatchObject({
    messagesThisMonth: 0,
    voiceMinutesThisMonth: 0,
  });
  expect((await api(routes.chat.listSessions)).sessions).toEqual([]);
};

describe.each(['es', 'en'] as const)('hostile voice notes, answered in %s', (language: Language) => {
  it('V-2 POST /message-audio refuses each with its status, code and message; nothing stored', async () => {
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [i, entry] of corpus.entries()) {
      const form = new FormData();
      form.append('audio', new Blob([entry.data as Uint8Array<ArrayBuffer>]), entry.file);
      form.append('clientMessageId', `hostile-rest-${language}-${i}`);
      form.append('transcriptHint', 'hola');
      const res = await fetch(new URL('/message-audio', server.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'accept-language': language },
        body: form,
      });
      answers[entry.name] = { status: res.status, ...((await res.json()) as { error: object }).error };
      expected[entry.name] = { ...entry.note, message: ERROR_MESSAGES[language][entry.note.code] };
    }
    expect(answers).toEqual(expected);
    await nothingStored();
  });

  it('V-2 chat:voice refuses each with its code and message; nothing stored', async () => {
    const client = connectClient(server.url, user.token, { language });
    clients.push(client);
    await client.connected();
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [i, entry] of corpus.entries()) {
      const ack = await client.request(ClientEvent.chatVoice, {
        clientMessageId: `hostile-socket-${language}-${i}`,
        audio: entry.data,
        mimeType: 'audio/webm;codecs=opus',
        durationMs: 1500,
        transcriptHint: 'hola',
      });
      answers[entry.name] = ack;
      expected[entry.name] = {
        ok: false,
        error: { code: entry.note.code, message: ERROR_MESSAGES[language][entry.note.code] },
      };
    }
    expect(answers).toEqual(expected);
    await nothingStored();
  });
});

describe('E-2 a 415 on multipart routes says to send a form upload (issue 11)', () => {
  it.each([
    ['POST /message-audio', '/message-audio'],
    ['POST /api/upload/voice', '/api/upload/voice'],
    ['POST /api/upload/avatar', '/api/upload/avatar'],
    ['POST /api/upload/avatar/compatibility-check', '/api/upload/avatar/compatibility-check'],
  ])('%s with JSON or text answers multipart_required in es and en', async (_name, path) => {
    for (const [language, contentType, body] of [
      ['es', 'application/json', '{"audio":"x"}'],
      ['en', 'text/plain', 'audio'],
      ['en', 'application/xml', '<audio/>'],
    ] as const) {
      const res = await fetch(new URL(path, server.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'accept-language': language,
          'content-type': contentType,
        },
        body,
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        error: { code: 'multipart_required', message: ERROR_MESSAGES[language].multipart_required },
      });
    }
  });
});
