import { ClientEvent, ServerEvent, routes, type AuthSession, type Personality } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/** Conversation context, titles and personality changes as a client sees them over the socket. */
let server: TestServer;
let user: AuthSession;
const clients: TestClient[] = [];
const connect = () => {
  const c = connectClient(server.url, user.token);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server.url, { name: 'Lucía' });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

async function send(
  c: TestClient,
  clientMessageId: string,
  message: string,
  sessionId?: string,
  personality?: Personality,
) {
  const ack = await c.request(ClientEvent.chatSend, {
    clientMessageId,
    message,
    avatarId: 'robotina',
    voiceId: 'voice-1',
    ...(sessionId ? { sessionId } : {}),
    ...(personality ? { personality } : {}),
  });
  if (!ack.ok) throw new Error(ack.error.code);
  // Generous: on a busy machine the first reply also waits for the speech engine to compile.
  await c.waitForReplyEnd(ack.data.replyId, 45_000);
  return ack.data;
}

describe('C-11/C-12 over the socket', () => {
  it('every chat:reply carries the updated context; the first exchange titles the session, announced after the reply', async () => {
    const c = connect();
    await c.connected();
    const first = await send(c, 'ctx-1', 'Hola, me llamo Lucía. Mañana tengo mi examen de historia');
    const second = await send(c, 'ctx-2', 'Mi amiga Sara me ayuda a estudiar', first.sessionId);

    const replies = c.events.filter((e) => e.event === ServerEvent.chatReply);
    const contexts = replies.map(
      (e) =>
        (e.payload as { reply: { sessionContext: { entities: { names: string[] }; keyPoints: string[] } } })
          .reply.sessionContext,
    );
    expect(contexts.map((x) => x.entities.names)).toEqual([['Lucía'], ['Lucía', 'Sara']]);
    expect(contexts[1]?.keyPoints).toHaveLength(2);

    const renamed = c.events.filter(
      (e) => e.event === ServerEvent.sessionUpdated && e.payload.kind === 'renamed',
    );
    expect(renamed).toHaveLength(1);
    expect(renamed[0]?.payload).toMatchObject({
      session: {
        sessionId: first.sessionId,
        title: 'Tu examen de mañana',
      },
    });
    expect(
      (renamed[0]?.payload.session as { dominantEmotion: string | null }).dominantEmotion,
    ).not.toBeNull();
    const firstReply = c.events.findIndex((e) => e.event === ServerEvent.chatReply);
    expect(firstReply).toBeLessThan(c.events.indexOf(renamed[0]!));
    expect(second.sessionId).toBe(first.sessionId);
    expect(c.problems).toEqual([]);
  });

  it('C-12 POST auto-title announces the new title to every socket of the user', async () => {
    const c = connect();
    await c.connected();
    const sent = await send(c, 'ctx-3', "Hi! I'm Sam and I got a new job");
    const call = apiClient(server.url, { token: user.token, language: 'en' });
    await call(routes.chat.renameSession, { params: { id: sent.sessionId }, body: { title: 'Mine' } });
    const { title } = await call(routes.chat.autoTitle, { params: { id: sent.sessionId } });
    expect(title).toBe("Sam's new job");
    await c.waitFor((events) =>
      events.some(
        (e) =>
          e.event === ServerEvent.sessionUpdated &&
          e.payload.kind === 'renamed' &&
          (e.payload.session as { title: string }).title === "Sam's new job" &&
          events.filter((x) => x.event === ServerEvent.sessionUpdated && x.payload.kind === 'renamed')
            .length >= 3,
      ),
    );
  });
});

describe('C-14 personality change', () => {
  it('the system message reaches the sender and another tab watching the session, in the caller language', async () => {
    const tab1 = connect();
    const tab2 = connect();
    await Promise.all([tab1.connected(), tab2.connected()]);
    const sent = await send(tab1, 'pers-1', 'Hola');
    expect(await tab2.request(ClientEvent.sessionWatch, { sessionId: sent.sessionId })).toMatchObject({
      ok: true,
    });

    const call = apiClient(server.url, { token: user.token, language: 'es' });
    const changed = await call(routes.chat.changePersonality, {
      body: { sessionId: sent.sessionId, personality: 'formal' },
    });
    expect(changed.message.content).toBe('Personalidad cambiada a Formal.');
    for (const tab of [tab1, tab2]) {
      await tab.waitFor((events) =>
        events.some(
          (e) =>
            e.event === ServerEvent.chatMessage &&
            (e.payload.message as { _id: string })._id === changed.message._id,
        ),
      );
    }
    // Later replies speak with the new personality.
    const next = await send(tab1, 'pers-2', 'Cuéntame algo', sent.sessionId);
    const reply = tab1.events.find(
      (e) => e.event === ServerEvent.chatReply && e.payload.replyId === next.replyId,
    )?.payload as { reply: { personality: string } };
    expect(reply.reply.personality).toBe('formal');
  });

  it('C-14 a send that names a personality speaks with it once; the session keeps its own, on every device', async () => {
    const tab = connect();
    await tab.connected();
    const sent = await send(tab, 'pers-3', 'Hola');
    const call = apiClient(server.url, { token: user.token, language: 'es' });
    await call(routes.chat.changePersonality, { body: { sessionId: sent.sessionId, personality: 'formal' } });
    const personalityOf = (replyId: string) =>
      (
        tab.events.find((e) => e.event === ServerEvent.chatReply && e.payload.replyId === replyId)
          ?.payload as {
          reply: { personality: string };
        }
      ).reply.personality;

    // A device that still shows the default personality names it in its send: that reply uses
    // it, and the session's stays Formal — no silent change without its system message.
    const named = await send(tab, 'pers-4', 'Cuéntame algo', sent.sessionId, 'default');
    expect(personalityOf(named.replyId)).toBe('default');
    const { sessions } = await call(routes.chat.listSessions);
    expect(sessions.find((s) => s.sessionId === sent.sessionId)?.personality).toBe('formal');

    // A send that names none speaks with the session's.
    const unnamed = await send(tab, 'pers-5', '¿Y qué más?', sent.sessionId);
    expect(personalityOf(unnamed.replyId)).toBe('formal');
    // A new session takes the personality its first send names.
    const fresh = await send(tab, 'pers-6', 'Hola de nuevo', undefined, 'creative');
    const again = await call(routes.chat.listSessions);
    expect(again.sessions.find((s) => s.sessionId === fresh.sessionId)?.personality).toBe('creative');
  });
});
