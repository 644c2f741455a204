import {
  ApiErrorSchema,
  ChatExportSchema,
  ChatReplySchema,
  MessagesPageSchema,
  routes,
} from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';

let t: TestApp;
let alice: string;
let bob: string;

async function tokenFor(email: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: 'Someone', email }),
  });
  return (json(res) as { token: string }).token;
}
const as = (
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  language = 'es',
) =>
  t.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: { authorization: `Bearer ${token}`, 'accept-language': language },
  });

beforeAll(async () => {
  t = await buildTestApp();
  alice = await tokenFor('alice@example.com');
  bob = await tokenFor('bob@example.com');
});
afterAll(async () => t.close());

describe('sessions', () => {
  it('creates (title optional), lists, renames and deletes sessions', async () => {
    const untitled = await as(alice, 'POST', '/chat/sessions', {});
    expect(untitled.statusCode).toBe(201);
    expect(json(untitled)).toMatchObject({
      session: { title: null, personality: 'default', messageCount: 0 },
    });
    const titled = await as(alice, 'POST', '/chat/sessions', { title: '  Planes  ' });
    const { session } = routes.chat.createSession.response.parse(json(titled));
    expect(session.title).toBe('Planes');

    const renamed = await as(alice, 'POST', `/chat/sessions/${session.sessionId}/title`, { title: 'Viaje' });
    expect(json(renamed)).toMatchObject({ session: { title: 'Viaje' } });
    const list = routes.chat.listSessions.response.parse(json(await as(alice, 'GET', '/chat/sessions')));
    expect(list.sessions.map((s) => s.title)).toEqual(['Viaje', null]);

    expect((await as(alice, 'DELETE', `/chat/sessions/${session.sessionId}`)).statusCode).toBe(200);
    expect((await as(alice, 'DELETE', `/chat/sessions/${session.sessionId}`)).statusCode).toBe(404);
  });

  it("keeps users apart: another user's session is not found for every route", async () => {
    const { session } = routes.chat.createSession.response.parse(
      json(await as(alice, 'POST', '/chat/sessions', { title: 'Mía' })),
    );
    const id = session.sessionId;
    const attempts = [
      await as(bob, 'POST', `/chat/sessions/${id}/title`, { title: 'Robada' }),
      await as(bob, 'DELETE', `/chat/sessions/${id}`),
      await as(bob, 'GET', `/chat/messages?sessionId=${id}`),
      await as(bob, 'POST', '/message', { sessionId: id, message: 'hola' }),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(ApiErrorSchema.parse(json(res)).error.code).toBe('not_found');
    }
    expect(
      routes.chat.listSessions.response.parse(json(await as(bob, 'GET', '/chat/sessions'))).sessions,
    ).toEqual([]);
  });

  it('validates titles and ids in the spec words', async () => {
    const res = await as(alice, 'POST', '/chat/sessions', { title: 'x'.repeat(500) }, 'en');
    expect(res.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(res)).error.errors?.[0]).toMatchObject({
      field: 'title',
      code: 'tooLong',
    });
  });

  it('needs a bearer token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/chat/sessions' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /message', () => {
  // The first spoken replies of the file start and warm the speech workers (S-12): seconds of
  // CPU, many more on a loaded machine.
  it(
    'C-3 creates a session when none is given and returns the full chat reply',
    { timeout: 60_000 },
    async () => {
      const res = await as(alice, 'POST', '/message', { message: '  Hola, me llamo Alicia  ' });
      expect(res.statusCode).toBe(200);
      const reply = ChatReplySchema.parse(json(res));
      expect(reply.language).toBe('es');
      expect(reply.reply.length).toBeGreaterThan(0);
      expect(reply.animationIntent.context.duration).toBe(3000);
      expect(reply.sessionContext.entities.names).toContain('Alicia');
      const page = MessagesPageSchema.parse(
        json(await as(alice, 'GET', `/chat/messages?sessionId=${reply.sessionId}`)),
      );
      expect(page.items.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Hola, me llamo Alicia'],
        ['assistant', reply.reply],
      ]);
    },
  );

  it(
    'S-4 the REST reply carries the audioUrl of its spoken audio, which serves the file',
    { timeout: 60_000 },
    async () => {
      const reply = ChatReplySchema.parse(
        json(await as(alice, 'POST', '/message', { message: 'Cuéntame algo bonito, por favor' })),
      );
      expect(reply.audioUrl).toBe(`/audio/${reply.messageId}.mp3`);
      const page = MessagesPageSchema.parse(
        json(await as(alice, 'GET', `/chat/messages?sessionId=${reply.sessionId}`)),
      );
      expect(page.items.at(-1)?.audioUrl).toBe(reply.audioUrl);
      const audio = await t.app.inject({ method: 'GET', url: reply.audioUrl ?? '' });
      expect(audio.statusCode).toBe(200);
      expect(audio.headers['content-type']).toBe('audio/mpeg');
      expect(audio.rawPayload.byteLength).toBeGreaterThan(1000);
    },
  );

  it('C-2 is idempotent by clientMessageId over REST too', async () => {
    const body = { message: 'Hello there', clientMessageId: 'rest-dup-1' };
    const a = ChatReplySchema.parse(json(await as(alice, 'POST', '/message', body)));
    const b = ChatReplySchema.parse(json(await as(alice, 'POST', '/message', body)));
    expect(b.messageId).toBe(a.messageId);
    expect(b.reply).toBe(a.reply);
    const page = MessagesPageSchema.parse(
      json(await as(alice, 'GET', `/chat/messages?sessionId=${a.sessionId}`)),
    );
    expect(page.total).toBe(2);
  });

  it.each([
    [{ message: '   ' }, 'messageRequired'],
    [{ message: 'x'.repeat(4001) }, 'tooLong'],
    [{ message: 'hola', personality: 'evil' }, 'invalid'],
    [{}, 'messageRequired'],
  ])('rejects %j with %s and stores nothing', async (body, code) => {
    const before = await t.storage.messages.countByUser(
      (await t.storage.users.findByEmail('bob@example.com'))!.id,
    );
    const res = await as(bob, 'POST', '/message', body);
    expect(res.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(res)).error.errors?.[0]?.code).toBe(code);
    const after = await t.storage.messages.countByUser(
      (await t.storage.users.findByEmail('bob@example.com'))!.id,
    );
    expect(after).toBe(before);
  });
});

describe('C-6 history paging', () => {
  // Thirty spoken replies in a row: allowed a minute on a busy machine.
  it('pages from the newest, oldest first inside a page', { timeout: 60_000 }, async () => {
    const { session } = routes.chat.createSession.response.parse(
      json(await as(alice, 'POST', '/chat/sessions', {})),
    );
    for (let i = 1; i <= 30; i++) {
      const res = await as(alice, 'POST', '/message', {
        sessionId: session.sessionId,
        message: `Mensaje número ${i}`,
      });
      expect(res.statusCode).toBe(200);
    }
    const p1 = MessagesPageSchema.parse(
      json(await as(alice, 'GET', `/chat/messages?sessionId=${session.sessionId}`)),
    );
    expect(p1).toMatchObject({ total: 60, page: 1, pageSize: 50, hasMore: true });
    expect(p1.items).toHaveLength(50);
    expect(p1.items.at(-1)?.role).toBe('assistant');
    expect(p1.items[0]?.content).toBe('Mensaje número 6');
    const p2 = MessagesPageSchema.parse(
      json(await as(alice, 'GET', `/chat/messages?sessionId=${session.sessionId}&page=2`)),
    );
    expect(p2).toMatchObject({ page: 2, hasMore: false });
    expect(p2.items.map((m) => m.content).filter((_, i) => i % 2 === 0)).toEqual([
      'Mensaje número 1',
      'Mensaje número 2',
      'Mensaje número 3',
      'Mensaje número 4',
      'Mensaje número 5',
    ]);
    const bad = await as(alice, 'GET', `/chat/messages?sessionId=${session.sessionId}&page=0`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('C-12 POST /chat/sessions/:id/auto-title', () => {
  it('titles the session from its first user message and answers the title', async () => {
    const reply = ChatReplySchema.parse(
      json(await as(alice, 'POST', '/message', { message: 'Mañana tengo una entrevista de trabajo' })),
    );
    // The first exchange titled it already; a rename by the user is replaced only on request.
    await as(alice, 'POST', `/chat/sessions/${reply.sessionId}/title`, { title: 'Mío' });
    const res = await as(alice, 'POST', `/chat/sessions/${reply.sessionId}/auto-title`);
    expect(res.statusCode).toBe(200);
    expect(routes.chat.autoTitle.response.parse(json(res))).toEqual({ title: 'Tu entrevista de mañana' });
    const list = routes.chat.listSessions.response.parse(json(await as(alice, 'GET', '/chat/sessions')));
    expect(list.sessions.find((s) => s.sessionId === reply.sessionId)?.title).toBe('Tu entrevista de mañana');
  });

  it('answers "New conversation" for a session without messages, storing nothing', async () => {
    const { session } = routes.chat.createSession.response.parse(
      json(await as(alice, 'POST', '/chat/sessions')),
    );
    const res = await as(alice, 'POST', `/chat/sessions/${session.sessionId}/auto-title`, undefined, 'en');
    expect(json(res)).toEqual({ title: 'New conversation' });
  });
});

describe('C-11 GET /chat/sessions/:id/context', () => {
  it('answers the stored context and the dominant emotion', async () => {
    const reply = ChatReplySchema.parse(
      json(await as(alice, 'POST', '/message', { message: 'Hi, my name is Sam. My sister Ana is visiting' })),
    );
    const res = await as(alice, 'GET', `/chat/sessions/${reply.sessionId}/context`);
    const context = routes.chat.sessionContext.response.parse(json(res));
    expect(context).toEqual(reply.sessionContext);
    expect(context.entities.names).toEqual(['Sam', 'Ana']);
    expect(context.dominantEmotion).not.toBeNull();
  });
});

describe('C-13 GET /chat/export/:id', () => {
  it('downloads a document with the session, every message with its emotion, intent, personality, voice and avatar, and the context', async () => {
    const first = ChatReplySchema.parse(
      json(
        await as(alice, 'POST', '/message', {
          message: 'Hola, me llamo Lucía',
          voiceId: 'voice-es-1',
          avatarId: 'witch',
          personality: 'creative',
        }),
      ),
    );
    const sessionId = first.sessionId;
    await as(alice, 'POST', '/personality', { sessionId, personality: 'formal' });
    const second = ChatReplySchema.parse(
      json(
        await as(alice, 'POST', '/message', {
          sessionId,
          message: 'Mañana tengo mi examen',
          voiceId: 'voice-es-2',
        }),
      ),
    );

    const res = await as(alice, 'GET', `/chat/export/${sessionId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${sessionId}.json"`);
    const doc = ChatExportSchema.parse(json(res));
    expect(doc).toMatchObject({ format: 'alma.chat-export', version: 1 });
    expect(doc.session).toMatchObject({ sessionId, personality: 'formal', messageCount: 5 });
    expect(doc.context).toEqual(second.sessionContext);

    // Replayed in order, the document is the conversation as it happened.
    expect(doc.messages.map((m) => [m.role, m.personality, m.voiceId, m.avatarId])).toEqual([
      ['user', null, 'voice-es-1', 'witch'],
      ['assistant', 'creative', 'voice-es-1', 'witch'],
      ['system', 'formal', null, null],
      ['user', null, 'voice-es-2', null],
      ['assistant', 'formal', 'voice-es-2', null],
    ]);
    const [, firstReply, system, , secondReply] = doc.messages;
    expect(firstReply).toMatchObject({
      _id: first.messageId,
      content: first.reply,
      emotion: first.emotion,
      emotionAnalysis: first.emotionAnalysis,
      animationIntent: first.animationIntent,
      replyTo: first.userMessageId,
      isComplete: true,
    });
    expect(secondReply).toMatchObject({ _id: second.messageId, animationIntent: second.animationIntent });
    expect(system).toMatchObject({ content: 'Personalidad cambiada a Formal.', animationIntent: null });
    expect(doc.messages.filter((m) => m.role === 'user').every((m) => m.animationIntent === null)).toBe(true);
  });
});

describe('C-14 POST /personality and GET /personalities', () => {
  it('stores the personality and confirms it with a system message in the caller language', async () => {
    const { session } = routes.chat.createSession.response.parse(
      json(await as(alice, 'POST', '/chat/sessions')),
    );
    const es = routes.chat.changePersonality.response.parse(
      json(await as(alice, 'POST', '/personality', { sessionId: session.sessionId, personality: 'formal' })),
    );
    expect(es).toMatchObject({
      success: true,
      personality: 'formal',
      message: { role: 'system', content: 'Personalidad cambiada a Formal.', sessionId: session.sessionId },
    });
    const en = routes.chat.changePersonality.response.parse(
      json(
        await as(
          alice,
          'POST',
          '/personality',
          { sessionId: session.sessionId, personality: 'technical' },
          'en',
        ),
      ),
    );
    expect(en.message.content).toBe('Personality changed to Technical.');
    const list = routes.chat.listSessions.response.parse(json(await as(alice, 'GET', '/chat/sessions')));
    expect(list.sessions.find((s) => s.sessionId === session.sessionId)?.personality).toBe('technical');
    const page = MessagesPageSchema.parse(
      json(await as(alice, 'GET', `/chat/messages?sessionId=${session.sessionId}`)),
    );
    expect(page.items.map((m) => [m.role, m.content])).toEqual([
      ['system', 'Personalidad cambiada a Formal.'],
      ['system', 'Personality changed to Technical.'],
    ]);
  });

  it.each([
    [{ personality: 'formal' }, 'sessionId', 'required'],
    [{ sessionId: 'x', personality: 'evil' }, 'personality', 'invalid'],
    [{ sessionId: 'x'.repeat(65), personality: 'formal' }, 'sessionId', 'invalid'],
  ])('rejects %j (%s: %s)', async (body, field, code) => {
    const res = await as(alice, 'POST', '/personality', body);
    expect(res.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(res)).error.errors?.[0]).toMatchObject({ field, code });
  });

  it('describes the four built-in personalities in the caller language', async () => {
    const es = routes.chat.listPersonalities.response.parse(json(await as(alice, 'GET', '/personalities')));
    expect(Object.keys(es.personalities)).toEqual(['default', 'formal', 'creative', 'technical']);
    expect(es.personalities.creative).toMatchObject({
      name: 'Creativa',
      personality: 'creative',
      language: 'es',
    });
    const en = routes.chat.listPersonalities.response.parse(
      json(await as(alice, 'GET', '/personalities', undefined, 'en')),
    );
    expect(en.personalities.technical).toMatchObject({ name: 'Technical', language: 'en' });
    expect(en.personalities.default.style.length).toBeGreaterThan(10);
  });
});

describe('DELETE /session/:sessionId', () => {
  it('deletes a chat session like DELETE /chat/sessions/:id', async () => {
    const { session } = routes.chat.createSession.response.parse(
      json(await as(alice, 'POST', '/chat/sessions')),
    );
    expect((await as(bob, 'DELETE', `/session/${session.sessionId}`)).statusCode).toBe(404);
    const res = await as(alice, 'DELETE', `/session/${session.sessionId}`);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true });
    expect((await as(alice, 'DELETE', `/session/${session.sessionId}`)).statusCode).toBe(404);
    expect((await as(alice, 'DELETE', `/session/${'x'.repeat(65)}`)).statusCode).toBe(400);
  });
});

describe('new routes keep users apart and validate ids', () => {
  it("answers not_found for another user's session on every route", async () => {
    const reply = ChatReplySchema.parse(json(await as(alice, 'POST', '/message', { message: 'Hola' })));
    const id = reply.sessionId;
    const attempts = [
      await as(bob, 'POST', `/chat/sessions/${id}/auto-title`),
      await as(bob, 'GET', `/chat/sessions/${id}/context`),
      await as(bob, 'GET', `/chat/export/${id}`),
      await as(bob, 'POST', '/personality', { sessionId: id, personality: 'formal' }),
      await as(bob, 'DELETE', `/session/${id}`),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(404);
      expect(ApiErrorSchema.parse(json(res)).error.code).toBe('not_found');
    }
    // Nothing changed for its owner.
    const list = routes.chat.listSessions.response.parse(json(await as(alice, 'GET', '/chat/sessions')));
    expect(list.sessions.find((s) => s.sessionId === id)?.personality).toBe('default');
  });

  it('refuses ids that are too long and calls without a token', async () => {
    const long = 'x'.repeat(65);
    for (const [method, url] of [
      ['POST', `/chat/sessions/${long}/auto-title`],
      ['GET', `/chat/sessions/${long}/context`],
      ['GET', `/chat/export/${long}`],
    ] as const) {
      const res = await as(alice, method, url);
      expect(res.statusCode, url).toBe(400);
      expect(ApiErrorSchema.parse(json(res)).error.errors?.[0]).toMatchObject({
        field: 'params.id',
        code: 'invalid',
      });
    }
    for (const [method, url] of [
      ['POST', '/chat/sessions/abc/auto-title'],
      ['GET', '/chat/export/abc'],
      ['POST', '/personality'],
      ['DELETE', '/session/abc'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });
});
