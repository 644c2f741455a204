import { ClientEvent, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import { connectClient, type RecordedEvent, type TestClient } from '../fixtures/socket.ts';

/**
 * Issue 15, SPEC.md M-1…: two real Alma processes sharing one embedded database file and one
 * Redis, each on its own port, with real socket.io clients. Kept to one cluster for the whole
 * file: starting processes is what costs here.
 */
let cluster: TestCluster;
let a: string;
let b: string;
const clients: TestClient[] = [];
const connect = (url: string, token: string) => {
  const c = connectClient(url, token);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  cluster = await startCluster(2, {
    REPLY_TOKEN_DELAY_MS: '5',
    AUTH_RATE_LIMIT_MAX: '10000',
    SPEECH_ENGINE: 'none',
  });
  [a, b] = cluster.instances.map((i) => i.url) as [string, string];
}, 120_000);
afterAll(async () => {
  for (const c of clients) c.close();
  await cluster?.stop();
});

const of = (events: RecordedEvent[], event: string) => events.filter((e) => e.event === event);

describe('M-1 rooms span instances', () => {
  it('M-1 a user with sockets on two instances gets every multi-tab event on both', async () => {
    const user: AuthSession = await registerUser(a, { name: 'Dos Pestañas' });
    const onA = connect(a, user.token);
    const onB = connect(b, user.token);
    await Promise.all([onA.connected(), onB.connected()]);
    const both = [onA, onB];

    // session:updated `created`, from a REST call on A.
    const { session } = await apiClient(a, { token: user.token })(routes.chat.createSession, {
      body: { title: 'Entre instancias' },
    });
    const created = (c: TestClient) =>
      of(c.events, ServerEvent.sessionUpdated).some(
        (e) =>
          e.payload.kind === 'created' &&
          (e.payload.session as { sessionId: string }).sessionId === session.sessionId,
      );
    await Promise.all(both.map((c) => c.waitFor(() => created(c))));

    // The tab on B watches the session; the tab on A sends in it: B gets the message (the sender
    // is not echoed), the whole reply stream in seq order, and usage:updated; A gets its reply.
    expect((await onB.request(ClientEvent.sessionWatch, { sessionId: session.sessionId })).ok).toBe(true);
    const ack = await onA.request(ClientEvent.chatSend, {
      clientMessageId: 'many-1',
      sessionId: session.sessionId,
      message: 'Hola desde la pestaña A',
    });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    const { replyId } = ack.data;
    await Promise.all(both.map((c) => c.waitForReplyEnd(replyId)));
    await Promise.all(both.map((c) => c.waitFor((e) => of(e, ServerEvent.usageUpdated).length > 0)));
    expect(of(onB.events, ServerEvent.chatMessage).map((e) => e.payload.message)).toMatchObject([
      { clientMessageId: 'many-1', content: 'Hola desde la pestaña A' },
    ]);
    expect(of(onA.events, ServerEvent.chatMessage)).toEqual([]);
    const streamA = onA.replyEvents(replyId);
    const streamB = onB.replyEvents(replyId);
    expect(streamB.map((e) => e.event)).toEqual(streamA.map((e) => e.event));
    expect(streamB.map((e) => e.payload.seq)).toEqual(streamB.map((_, i) => i));
    expect(streamB.at(-1)?.event).toBe(ServerEvent.chatReply);
    expect(of(streamB, ServerEvent.chatDelta).length).toBeGreaterThan(0);

    // renamed and deleted, from REST calls on B, reach the tab on A.
    const onB_api = apiClient(b, { token: user.token });
    await onB_api(routes.chat.renameSession, {
      params: { id: session.sessionId },
      body: { title: 'Renombrada' },
    });
    await onB_api(routes.chat.deleteSession, { params: { id: session.sessionId } });
    for (const c of both) {
      await c.waitFor((e) =>
        of(e, ServerEvent.sessionUpdated).some(
          (x) => x.payload.kind === 'deleted' && x.payload.sessionId === session.sessionId,
        ),
      );
      const kinds = of(c.events, ServerEvent.sessionUpdated)
        .filter(
          (e) =>
            e.payload.sessionId === session.sessionId ||
            (e.payload.session as { sessionId?: string } | undefined)?.sessionId === session.sessionId,
        )
        .map((e) => e.payload.kind);
      expect(kinds).toEqual(expect.arrayContaining(['created', 'renamed', 'deleted']));
      expect(c.problems).toEqual([]);
    }
  });
});
