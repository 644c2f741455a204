import { ApiErrorSchema, ChatReplySchema, MessagesPageSchema, routes } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../../test-support/app.ts';

let t: TestApp;
let alice: string;
let bob: string;

async function tokenFor(email: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Someone', email, password: 'Secret123' },
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
  it('C-3 creates a session when none is given and returns the full chat reply', async () => {
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
  });

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
  it('pages from the newest, oldest first inside a page', async () => {
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
