import {
  ClientEvent,
  DEFAULT_LANGUAGE,
  ERROR_MESSAGES,
  PROTOCOL_VERSION,
  ServerEvent,
  routes,
  type AuthSession,
} from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

let server: TestServer;
let user: AuthSession;
const clients: TestClient[] = [];
const connect = (token = user.token, opts?: Parameters<typeof connectClient>[2]) => {
  const c = connectClient(server.url, token, opts);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  server = await startTestServer({ REPLY_TOKEN_DELAY_MS: '5' });
  user = await registerUser(server.url, { name: 'Lucía' });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

describe('handshake', () => {
  it('P-6 emits server:status on connect', async () => {
    const c = connect();
    await c.connected();
    await c.waitFor((e) => e.some((x) => x.event === ServerEvent.serverStatus));
    expect(c.events[0]).toMatchObject({
      event: 'server:status',
      payload: { status: 'online', protocolVersion: PROTOCOL_VERSION },
    });
  });

  it.each([
    ['client_too_old', PROTOCOL_VERSION - 1],
    ['server_too_old', PROTOCOL_VERSION + 1],
  ] as const)(
    'P-1 refuses another protocol version saying which side is old: %s',
    async (code, protocolVersion) => {
      const c = connect(user.token, { protocolVersion });
      c.socket.io.opts.reconnection = false;
      const err = await c.connected().then(
        () => null,
        (e: Error & { data?: unknown }) => e,
      );
      expect(err?.message).toBe(code);
      // In the default language: the handshake sent no Accept-Language.
      expect(err?.data).toEqual({ code, message: ERROR_MESSAGES[DEFAULT_LANGUAGE][code] });
    },
  );

  it("W-5 refuses a handshake whose Host is not the app's (a DNS-rebinding page)", async () => {
    const c = connect(user.token, { headers: { host: 'rebound.attacker.example' } });
    c.socket.io.opts.reconnection = false;
    const err = await c.connected().then(
      () => null,
      (e: Error) => e,
    );
    expect(err).not.toBeNull();
    const ok = connect(user.token, { headers: { host: new URL(server.url).host } });
    await ok.connected();
  });

  it('P-2 refuses a bad token with unauthorized', async () => {
    const c = connect('not-a-token');
    c.socket.io.opts.reconnection = false;
    const err = await c.connected().then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toBe('unauthorized');
  });
});

describe('chat:send', () => {
  it('C-1/C-3/C-4 acks after storing, creates a session, then streams typing → deltas → typing false → reply in seq order', async () => {
    const c = connect();
    await c.connected();
    const ack = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'first-1',
      message: 'Hola, me llamo Lucía',
    });
    expect(ack.ok).toBe(true);
    if (!ack.ok) return;
    expect(ack.data.duplicate).toBe(false);
    expect(ack.data.message).toMatchObject({
      role: 'user',
      content: 'Hola, me llamo Lucía',
      clientMessageId: 'first-1',
    });
    await c.waitForReplyEnd(ack.data.replyId);
    // The ack left before anything of its reply (the reply starts as soon as it has: issue 14).
    const ackAt = c.timeline.findIndex((t) => t.dir === 'ack' && t.event === ClientEvent.chatSend);
    const typingAt = c.timeline.findIndex((t) => t.event === ServerEvent.chatTyping);
    expect(ackAt).toBeGreaterThanOrEqual(0);
    expect(ackAt).toBeLessThan(typingAt);

    const events = c.replyEvents(ack.data.replyId);
    expect(events[0]).toMatchObject({ event: 'chat:typing', payload: { typing: true } });
    expect(events.at(-2)).toMatchObject({ event: 'chat:typing', payload: { typing: false } });
    expect(events.at(-1)?.event).toBe('chat:reply');
    expect(events.filter((e) => e.event === ServerEvent.chatTyping)).toHaveLength(2);
    expect(events.map((e) => e.payload.seq)).toEqual(events.map((_, i) => i));
    const text = events
      .filter((e) => e.event === ServerEvent.chatDelta)
      .map((e) => e.payload.text as string)
      .join('');
    const final = events.at(-1)?.payload as {
      reply: { reply: string; language: string };
      message: { content: string };
    };
    expect(final.reply.reply).toBe(text);
    expect(final.message.content).toBe(text);
    expect(final.reply.language).toBe('es');
    expect(text).not.toBe('Hola, me llamo Lucía');
    expect(c.problems).toEqual([]);

    // The session was created and the history holds both messages.
    const call = apiClient(server.url, { token: user.token });
    const page = await call(routes.chat.listMessages, { query: { sessionId: ack.data.sessionId } });
    expect(page.items.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('answers in English to English', async () => {
    const c = connect();
    await c.connected();
    const ack = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'en-1',
      message: 'Hello! How are you today?',
    });
    if (!ack.ok) throw new Error(ack.error.message);
    await c.waitForReplyEnd(ack.data.replyId);
    const final = c.replyEvents(ack.data.replyId).at(-1)?.payload as { reply: { language: string } };
    expect(final.reply.language).toBe('en');
  });

  it('C-17 a surprised message gets a surprised reply: chat:emotion, avatar:intent, stored message, context', async () => {
    const c = connect();
    await c.connected();
    const ack = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'surprised-1',
      message: '¡No me digas! No me lo esperaba para nada',
    });
    if (!ack.ok) throw new Error(ack.error.message);
    await c.waitForReplyEnd(ack.data.replyId);
    const events = c.replyEvents(ack.data.replyId);
    expect(events.find((e) => e.event === ServerEvent.chatEmotion)?.payload).toMatchObject({
      emotion: 'surprised',
      mood: 'curious',
    });
    expect(events.find((e) => e.event === ServerEvent.avatarIntent)?.payload).toMatchObject({
      emotion: 'surprised',
      gesture: 'surprise',
    });
    expect(c.problems).toEqual([]);
    const call = apiClient(server.url, { token: user.token });
    const page = await call(routes.chat.listMessages, { query: { sessionId: ack.data.sessionId } });
    expect(page.items.at(-1)).toMatchObject({ role: 'assistant', emotion: 'surprised' });
    const { sessions } = await call(routes.chat.listSessions, {});
    expect(sessions.find((s) => s.sessionId === ack.data.sessionId)?.dominantEmotion).toBe('surprised');
  });

  it('C-2 stores the same clientMessageId once and never replies twice', async () => {
    const c = connect();
    await c.connected();
    const first = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'dup-1',
      message: 'Estoy un poco cansada hoy',
    });
    const second = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'dup-1',
      message: 'Estoy un poco cansada hoy',
    });
    if (!first.ok || !second.ok) throw new Error('send failed');
    expect(second.data.duplicate).toBe(true);
    expect(second.data.message._id).toBe(first.data.message._id);
    expect(second.data.replyId).toBe(first.data.replyId);
    await c.waitForReplyEnd(first.data.replyId);
    // A third try after the reply was stored gets the stored reply, not a new one.
    const third = await c.request(ClientEvent.chatSend, {
      clientMessageId: 'dup-1',
      message: 'Estoy un poco cansada hoy',
    });
    if (!third.ok) throw new Error('send failed');
    expect(third.data.replyId).toBe(first.data.replyId);
    const call = apiClient(server.url, { token: user.token });
    const page = await call(routes.chat.listMessages, { query: { sessionId: first.data.sessionId } });
    expect(page.items.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(page.items.filter((m) => m.role === 'assistant')).toHaveLength(1);
  });

  it('P-4 answers an invalid payload with invalid_payload and stores nothing', async () => {
    const c = connect();
    await c.connected();
    const ack = await c.request(ClientEvent.chatSend, { clientMessageId: 'empty-1', message: '   ' });
    expect(ack).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    if (!ack.ok) expect(ack.error.errors?.[0]).toMatchObject({ field: 'message', code: 'messageRequired' });
    const bad = await c.request(ClientEvent.chatSend, 42 as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it("C-3 refuses another user's session with not_found", async () => {
    const other = await registerUser(server.url);
    const mine = connect();
    await mine.connected();
    const ack = await mine.request(ClientEvent.chatSend, { clientMessageId: 'own-1', message: 'hola' });
    if (!ack.ok) throw new Error('send failed');
    const theirs = connect(other.token);
    await theirs.connected();
    const stolen = await theirs.request(ClientEvent.chatSend, {
      clientMessageId: 'steal-1',
      sessionId: ack.data.sessionId,
      message: 'hola',
    });
    expect(stolen).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const watch = await theirs.request(ClientEvent.sessionWatch, { sessionId: ack.data.sessionId });
    expect(watch).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('C-9 a second tab watching the session sees the message and the streamed reply', async () => {
    const tab1 = connect();
    const tab2 = connect();
    await Promise.all([tab1.connected(), tab2.connected()]);
    const first = await tab1.request(ClientEvent.chatSend, { clientMessageId: 'tab-1', message: 'Hola' });
    if (!first.ok) throw new Error('send failed');
    await tab1.waitForReplyEnd(first.data.replyId);
    const watch = await tab2.request(ClientEvent.sessionWatch, { sessionId: first.data.sessionId });
    expect(watch.ok).toBe(true);
    const second = await tab1.request(ClientEvent.chatSend, {
      clientMessageId: 'tab-2',
      sessionId: first.data.sessionId,
      message: 'Me gusta la música',
    });
    if (!second.ok) throw new Error('send failed');
    await tab2.waitForReplyEnd(second.data.replyId);
    expect(
      tab2.events.some(
        (e) =>
          e.event === ServerEvent.chatMessage &&
          (e.payload.message as { _id: string })._id === second.data.message._id,
      ),
    ).toBe(true);
    expect(
      tab1.events.some(
        (e) =>
          e.event === ServerEvent.chatMessage &&
          (e.payload.message as { _id: string })._id === second.data.message._id,
      ),
    ).toBe(false);
    expect(tab2.replyEvents(second.data.replyId).map((e) => e.event)).toEqual(
      tab1.replyEvents(second.data.replyId).map((e) => e.event),
    );
  });

  it('C-7 chat:cancel stops the reply and keeps what was produced, marked incomplete', async () => {
    const slow = await startTestServer({ REPLY_TOKEN_DELAY_MS: '60' });
    try {
      const someone = await registerUser(slow.url);
      const c = connectClient(slow.url, someone.token);
      clients.push(c);
      await c.connected();
      const ack = await c.request(ClientEvent.chatSend, {
        clientMessageId: 'cancel-1',
        message: 'Cuéntame algo largo sobre cómo te sientes hoy y qué te gusta hacer',
      });
      if (!ack.ok) throw new Error('send failed');
      await c.waitFor(
        (e) =>
          e.filter((x) => x.event === ServerEvent.chatDelta && x.payload.replyId === ack.data.replyId)
            .length >= 2,
      );
      const cancel = await c.request(ClientEvent.chatCancel, { replyId: ack.data.replyId });
      expect(cancel).toEqual({ ok: true, data: { cancelled: true } });
      await c.waitForReplyEnd(ack.data.replyId);
      const last = c.replyEvents(ack.data.replyId).at(-1);
      expect(last?.event).toBe('chat:reply');
      // C-4: a stopped reply, too, ends with typing false just before its last event.
      expect(c.replyEvents(ack.data.replyId).at(-2)).toMatchObject({ payload: { typing: false } });
      const final = last?.payload as { message: { isComplete: boolean; content: string } };
      expect(final.message.isComplete).toBe(false);
      const streamed = c
        .replyEvents(ack.data.replyId)
        .filter((e) => e.event === ServerEvent.chatDelta)
        .map((e) => e.payload.text)
        .join('');
      expect(final.message.content).toBe(streamed);
      // Cancelling again (nothing in flight) is a no-op, not an error.
      expect(await c.request(ClientEvent.chatCancel, { replyId: ack.data.replyId })).toEqual({
        ok: true,
        data: { cancelled: false },
      });
    } finally {
      await slow.dispose();
    }
  });

  it('C-10 a voice note that is not audio is refused, never a made-up transcript', async () => {
    const c = connect();
    await c.connected();
    const ack = await c.request(ClientEvent.chatVoice, {
      clientMessageId: 'voice-1',
      audio: new Uint8Array([1, 2, 3]),
      mimeType: 'audio/webm',
      durationMs: 1000,
    });
    expect(ack).toMatchObject({ ok: false, error: { code: 'unsupported_audio' } });
  });

  it('P-5 rate limits a flooding socket', async () => {
    const limited = await startTestServer({ SOCKET_EVENT_RATE_LIMIT: '5' });
    try {
      const someone = await registerUser(limited.url);
      const c = connectClient(limited.url, someone.token);
      clients.push(c);
      await c.connected();
      const acks = await Promise.all(
        Array.from({ length: 8 }, () => c.request(ClientEvent.chatCancel, { replyId: 'nothing' })),
      );
      const refused = acks.filter((a) => !a.ok);
      expect(refused).toHaveLength(3);
      expect(refused[0]).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    } finally {
      await limited.dispose();
    }
  });
});

describe('C-8 reconnection', () => {
  it('a client that drops mid-reply and reconnects receives the missed events in order', async () => {
    const slow = await startTestServer({ REPLY_TOKEN_DELAY_MS: '40' });
    try {
      const someone = await registerUser(slow.url);
      const c = connectClient(slow.url, someone.token);
      clients.push(c);
      await c.connected();
      const ack = await c.request(ClientEvent.chatSend, {
        clientMessageId: 'drop-1',
        message: 'Hoy tuve un día muy largo en el trabajo y quiero contarte cómo fue todo',
      });
      if (!ack.ok) throw new Error('send failed');
      await c.waitFor((e) =>
        e.some((x) => x.event === ServerEvent.chatDelta && x.payload.replyId === ack.data.replyId),
      );
      // Drop the transport without a clean disconnect (what a flaky network does), mid-reply.
      const ended = (e: { event: string; payload: Record<string, unknown> }) =>
        (e.event === ServerEvent.chatReply || e.event === ServerEvent.chatError) &&
        e.payload.replyId === ack.data.replyId;
      expect(c.events.some(ended)).toBe(false);
      c.socket.io.engine.close();
      const receivedBeforeDrop = c.replyEvents(ack.data.replyId).length;
      await new Promise((r) => setTimeout(r, 300));
      await c.waitForReplyEnd(ack.data.replyId, 20_000);
      expect(c.socket.recovered).toBe(true);
      const events = c.replyEvents(ack.data.replyId);
      expect(events.length).toBeGreaterThan(receivedBeforeDrop);
      expect(events.map((e) => e.payload.seq)).toEqual(events.map((_, i) => i));
      const text = events
        .filter((e) => e.event === ServerEvent.chatDelta)
        .map((e) => e.payload.text)
        .join('');
      const final = events.at(-1)?.payload as { message: { content: string; isComplete: boolean } };
      expect(final.message.isComplete).toBe(true);
      expect(text).toBe(final.message.content);
    } finally {
      await slow.dispose();
    }
  });
});
