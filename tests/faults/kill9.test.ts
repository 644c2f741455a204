import { ClientEvent, MESSAGE_PAGE_SIZE_MAX, routes, type AuthSession, type Message } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { ensureServerBuilt, restartableAlma, type RestartableAlma } from '../fixtures/processes.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/**
 * kill -9 in the middle of a storm of sends, then restart on the same data directory (SPEC.md
 * C-1, C-2, C-5): every acknowledged message is stored exactly once, replies in flight at the kill
 * are stored as incomplete, and resending what was not acknowledged — with the same
 * clientMessageId — stores it once and replies to it once, replacing an incomplete reply.
 */

const CLIENTS = 5;
const SEND_FOR_MS = 1500;

const clients: TestClient[] = [];
let alma: RestartableAlma;
let url: string;

async function reconnected(c: TestClient, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!c.socket.connected) {
    if (Date.now() > deadline) throw new Error(`client did not reconnect within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  ensureServerBuilt();
  alma = await restartableAlma('alma-kill9-', {
    REPLY_TOKEN_DELAY_MS: '5',
    AUTH_RATE_LIMIT_MAX: '10000',
    SOCKET_EVENT_RATE_LIMIT: '100000',
    // One user sends far more than a month's free messages here; the limit is not under test.
    FREE_MESSAGES_PER_MONTH: '10000000',
  });
  url = alma.url;
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await alma?.close();
});

interface Sent {
  clientMessageId: string;
  sessionId: string;
  message: string;
  /** The stored message id from an ok ack before the kill. */
  ackedId?: string;
  failure?: string;
}

async function allUserMessages(token: string): Promise<{
  messages: Message[];
  sessionCounts: { sessionId: string; messageCount: number; total: number }[];
}> {
  const call = apiClient(url, { token });
  const { sessions } = await call(routes.chat.listSessions);
  const messages: Message[] = [];
  const sessionCounts = [];
  for (const session of sessions) {
    let total = 0;
    for (let page = 1; ; page++) {
      const result = await call(routes.chat.listMessages, {
        query: { sessionId: session.sessionId, page, pageSize: MESSAGE_PAGE_SIZE_MAX },
      });
      messages.push(...result.items);
      total = result.total;
      if (!result.hasMore) break;
    }
    sessionCounts.push({ sessionId: session.sessionId, messageCount: session.messageCount, total });
  }
  return { messages, sessionCounts };
}

describe('kill -9 and restart', () => {
  it(
    'C-1/C-2/C-5 nothing acknowledged is lost or doubled, replies in flight are stored incomplete, and resends are stored and answered once',
    { timeout: 120_000 },
    async () => {
      await alma.start();
      const user: AuthSession = await registerUser(url, { name: 'Kill Nine' });
      const call = apiClient(url, { token: user.token });
      const sessions = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) =>
          call(routes.chat.createSession, { body: { title: `client ${i}` } }),
        ),
      );
      for (let i = 0; i < CLIENTS; i++) clients.push(connectClient(url, user.token));
      await Promise.all(clients.map((c) => c.connected()));

      // Every client sends back to back (not waiting for replies) until the server dies under it.
      const sent = new Map<string, Sent>();
      let stop = false;
      const loops = clients.map(async (c, i) => {
        const sessionId = sessions[i]?.session.sessionId ?? '';
        for (let n = 0; !stop; n++) {
          const record: Sent = {
            clientMessageId: `kill9-c${i}-m${n}`,
            sessionId,
            message: `Mensaje ${n} del cliente ${i}: ¿sigues ahí?`,
          };
          sent.set(record.clientMessageId, record);
          try {
            const ack = await c.request(ClientEvent.chatSend, record, 3_000);
            if (ack.ok) record.ackedId = ack.data.message._id;
            else record.failure = ack.error.code;
          } catch (error) {
            record.failure = String(error);
          }
        }
      });
      await new Promise((r) => setTimeout(r, SEND_FOR_MS));
      await alma.kill();
      stop = true;
      await Promise.all(loops);

      const acked = [...sent.values()].filter((s) => s.ackedId);
      const unacked = [...sent.values()].filter((s) => !s.ackedId);
      expect(acked.length, 'messages acknowledged before the kill').toBeGreaterThan(CLIENTS);
      expect(unacked.length, 'sends in flight when the server died').toBeGreaterThan(0);

      // Same data directory, same port: clients reconnect by themselves with the same token.
      await alma.start();
      await Promise.all(clients.map((c) => reconnected(c)));

      // C-5: a reply's row is stored when it starts, so replies in flight at the kill are there,
      // incomplete, with what was flushed — never silently lost.
      const afterKill = await allUserMessages(user.token);
      const storedUserIds = new Set(afterKill.messages.filter((m) => m.role === 'user').map((m) => m._id));
      const interrupted = afterKill.messages.filter((m) => m.role === 'assistant' && !m.isComplete);
      expect(interrupted.length, 'C-5 replies in flight at the kill, stored as incomplete').toBeGreaterThan(
        0,
      );
      for (const m of interrupted)
        expect(storedUserIds.has(m.replyTo ?? ''), `C-5 ${m._id} answers a stored message`).toBe(true);

      // Resend everything unacknowledged, and every third acknowledged message too.
      const resend = [...unacked, ...acked.filter((_, i) => i % 3 === 0)];
      const resendAcks = new Map<string, { messageId: string; replyId: string; duplicate: boolean }>();
      const resendFailures: string[] = [];
      await Promise.all(
        clients.map(async (c, i) => {
          for (const record of resend.filter((s) => s.clientMessageId.startsWith(`kill9-c${i}-`))) {
            const ack = await c.request(ClientEvent.chatSend, {
              clientMessageId: record.clientMessageId,
              sessionId: record.sessionId,
              message: record.message,
            });
            if (!ack.ok) resendFailures.push(`${record.clientMessageId}: ${ack.error.code}`);
            else
              resendAcks.set(record.clientMessageId, {
                messageId: ack.data.message._id,
                replyId: ack.data.replyId,
                duplicate: ack.data.duplicate,
              });
          }
        }),
      );
      expect(resendFailures).toEqual([]);
      // C-2: a message acknowledged before is the same stored message, flagged duplicate.
      for (const record of acked) {
        const again = resendAcks.get(record.clientMessageId);
        if (again)
          expect(again, record.clientMessageId).toMatchObject({ messageId: record.ackedId, duplicate: true });
      }
      // Each resend gets its reply (stored before the kill, or a new one) — wait for them all.
      await Promise.all(
        clients.map(async (c, i) => {
          for (const [id, again] of resendAcks)
            if (id.startsWith(`kill9-c${i}-`)) await c.waitForReplyEnd(again.replyId, 30_000);
        }),
      );

      const { messages, sessionCounts } = await allUserMessages(user.token);
      const userMessages = messages.filter((m) => m.role === 'user');
      const byClientId = new Map<string, Message[]>();
      for (const m of userMessages)
        byClientId.set(m.clientMessageId ?? '', [...(byClientId.get(m.clientMessageId ?? '') ?? []), m]);

      const lost = acked
        .filter((s) => (byClientId.get(s.clientMessageId) ?? []).length === 0)
        .map((s) => s.clientMessageId);
      const doubled = [...byClientId]
        .filter(([, list]) => list.length > 1)
        .map(([id, list]) => `${id} ×${list.length}`);
      const changed = acked
        .filter((s) => byClientId.get(s.clientMessageId)?.[0]?._id !== s.ackedId)
        .map((s) => s.clientMessageId);
      const resentMissing = [...resendAcks]
        .filter(([id, a]) => byClientId.get(id)?.[0]?._id !== a.messageId)
        .map(([id]) => id);
      const strays = [...byClientId.keys()].filter((id) => !sent.has(id));
      const repliesPer = new Map<string, number>();
      for (const m of messages)
        if (m.role === 'assistant' && m.replyTo)
          repliesPer.set(m.replyTo, (repliesPer.get(m.replyTo) ?? 0) + 1);
      const twiceAnswered = [...repliesPer].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
      const resentUnanswered = [...resendAcks]
        .filter(([, a]) => (repliesPer.get(a.messageId) ?? 0) !== 1)
        .map(([id]) => id);
      const storedButUnacked = unacked.filter((s) => resendAcks.get(s.clientMessageId)?.duplicate).length;
      // C-2: a resend replaced the incomplete reply the kill left with a complete one.
      const resentMessageIds = new Set([...resendAcks.values()].map((a) => a.messageId));
      const stillIncomplete = messages
        .filter((m) => m.role === 'assistant' && !m.isComplete && resentMessageIds.has(m.replyTo ?? ''))
        .map((m) => m._id);
      const replaced = interrupted.filter((m) => resentMessageIds.has(m.replyTo ?? '')).length;

      console.info(
        `kill9: ${sent.size} sends by ${CLIENTS} clients in ${SEND_FOR_MS} ms — ${acked.length} acked, ${unacked.length} in flight at the kill ` +
          `(${storedButUnacked} of them had been stored: duplicate on resend); ${interrupted.length} replies stored incomplete by the kill ` +
          `(${replaced} replaced on resend); resent ${resend.length}; ` +
          `stored now: ${userMessages.length} user + ${messages.length - userMessages.length} assistant messages in ${sessionCounts.length} sessions`,
      );
      expect(lost, 'C-1 acknowledged but lost').toEqual([]);
      expect(changed, 'C-1 acknowledged id differs from the stored one').toEqual([]);
      expect(doubled, 'C-2 stored more than once').toEqual([]);
      expect(resentMissing, 'C-2 resent but not stored as acked').toEqual([]);
      expect(strays, 'stored but never sent').toEqual([]);
      expect(twiceAnswered, 'C-2 one user message never gets two replies').toEqual([]);
      expect(resentUnanswered, 'C-2 a resent message is answered exactly once').toEqual([]);
      expect(stillIncomplete, 'C-2 a resend replaces an incomplete reply with a complete one').toEqual([]);
      expect(userMessages.length, 'every sent message stored once').toBe(sent.size);
      for (const s of sessionCounts) expect(s.messageCount, `messageCount of ${s.sessionId}`).toBe(s.total);
      expect(clients.flatMap((c) => c.problems)).toEqual([]);
    },
  );
});
