import { ClientEvent, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, HttpError, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/** The monthly message limit over the socket (SPEC.md L-3), with a free plan capped at two. */
const LIMIT = 2;
let server: TestServer;
const clients: TestClient[] = [];
const connect = async (user: AuthSession) => {
  const c = connectClient(server.url, user.token);
  clients.push(c);
  await c.connected();
  return c;
};
const eventsOf = (c: TestClient, event: string) => c.events.filter((e) => e.event === event);

beforeAll(async () => {
  server = await startTestServer({ FREE_MESSAGES_PER_MONTH: String(LIMIT) });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

describe('monthly message limit over the socket', () => {
  it('L-3 announces usage:updated to every socket of the user after each counted message', async () => {
    const user = await registerUser(server.url);
    const [tab1, tab2] = [await connect(user), await connect(user)];
    const ack = await tab1.request(ClientEvent.chatSend, { clientMessageId: 'u-1', message: 'Hola' });
    expect(ack.ok).toBe(true);
    for (const tab of [tab1, tab2]) {
      await tab.waitFor((all) => all.some((e) => e.event === ServerEvent.usageUpdated));
      expect(eventsOf(tab, ServerEvent.usageUpdated).map((e) => e.payload)).toEqual([
        { messagesThisMonth: 1, messagesLimit: LIMIT, voiceMinutesThisMonth: 0, voiceMinutesLimit: 30 },
      ]);
    }
    if (ack.ok) await tab1.waitForReplyEnd(ack.data.replyId);
    expect(tab1.problems).toEqual([]);
  });

  it('L-3 refuses the message past the limit with an error ack and limit:reached, storing nothing', async () => {
    const user = await registerUser(server.url);
    const call = apiClient(server.url, { token: user.token });
    const [tab1, tab2] = [await connect(user), await connect(user)];
    let sessionId: string | undefined;
    for (let i = 1; i <= LIMIT; i += 1) {
      const ack = await tab1.request(ClientEvent.chatSend, {
        clientMessageId: `m-${i}`,
        message: `Mensaje ${i}`,
        ...(sessionId ? { sessionId } : {}),
      });
      if (!ack.ok) throw new Error(ack.error.message);
      sessionId = ack.data.sessionId;
      await tab1.waitForReplyEnd(ack.data.replyId);
    }
    if (!sessionId) throw new Error('no session');

    const refused = await tab1.request(ClientEvent.chatSend, {
      clientMessageId: 'm-over',
      message: 'Uno más',
      sessionId,
    });
    expect(refused).toEqual({
      ok: false,
      error: { code: 'limit_reached', message: 'Has alcanzado el límite de mensajes de tu plan.' },
    });
    for (const tab of [tab1, tab2]) {
      await tab.waitFor((all) => all.some((e) => e.event === ServerEvent.limitReached));
      expect(eventsOf(tab, ServerEvent.limitReached).map((e) => e.payload)).toEqual([
        {
          kind: 'messages',
          used: LIMIT,
          limit: LIMIT,
          message: 'Has alcanzado el límite de mensajes de tu plan.',
        },
      ]);
    }
    // Refusing without a session does not create one either.
    const noSession = await tab1.request(ClientEvent.chatSend, {
      clientMessageId: 'm-over-2',
      message: 'Otra',
    });
    expect(noSession.ok).toBe(false);

    const page = await call(routes.chat.listMessages, { query: { sessionId } });
    expect(page.items.filter((m) => m.role === 'user').map((m) => m.clientMessageId)).toEqual(['m-1', 'm-2']);
    expect((await call(routes.chat.listSessions)).sessions).toHaveLength(1);
    const usage = await call(routes.account.usage);
    expect(usage.usage.messagesThisMonth).toBe(LIMIT);

    // The REST send answers the same 429, and tells the sockets too.
    const rest = await call(routes.chat.sendMessage, { body: { message: 'Por REST', sessionId } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(rest).toBeInstanceOf(HttpError);
    expect((rest as HttpError).status).toBe(429);
    expect((rest as HttpError).code).toBe('limit_reached');
    await tab2.waitFor((all) => all.filter((e) => e.event === ServerEvent.limitReached).length === 3);
    expect(tab1.problems).toEqual([]);
  });

  it('L-3/C-2 a resent clientMessageId is not new: acked as a duplicate even at the limit, not counted', async () => {
    const user = await registerUser(server.url);
    const tab = await connect(user);
    const first = await tab.request(ClientEvent.chatSend, { clientMessageId: 'd-1', message: 'Hola' });
    if (!first.ok) throw new Error(first.error.message);
    await tab.waitForReplyEnd(first.data.replyId);
    const again = await tab.request(ClientEvent.chatSend, { clientMessageId: 'd-1', message: 'Hola' });
    expect(again).toMatchObject({ ok: true, data: { duplicate: true } });
    const second = await tab.request(ClientEvent.chatSend, {
      clientMessageId: 'd-2',
      message: 'Adiós',
      sessionId: first.data.sessionId,
    });
    expect(second.ok).toBe(true);
    // At the limit now: both earlier ids are still answered as duplicates.
    for (const id of ['d-1', 'd-2']) {
      const retry = await tab.request(ClientEvent.chatSend, { clientMessageId: id, message: 'x' });
      expect(retry).toMatchObject({ ok: true, data: { duplicate: true } });
    }
    expect(
      eventsOf(tab, ServerEvent.usageUpdated).map(
        (e) => (e.payload as { messagesThisMonth: number }).messagesThisMonth,
      ),
    ).toEqual([1, 2]);
    expect(eventsOf(tab, ServerEvent.limitReached)).toEqual([]);
  });
});
