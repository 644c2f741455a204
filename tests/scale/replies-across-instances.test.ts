import { ClientEvent, MESSAGE_PAGE_SIZE_MAX, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import { stopProcess } from '../fixtures/processes.ts';
import { socketClients, type RecordedEvent, type TestClient } from '../fixtures/socket.ts';

/**
 * SPEC.md M-5: replies in flight and their locks across two real Alma processes on one Redis and
 * one database file, with real socket.io clients — a cancel and a second send reaching the
 * instance that does not run the reply, and that instance killed mid-reply. Replies are slowed
 * (REPLY_TOKEN_DELAY_MS) so there is time to act while one streams; the last case kills A.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LEASE_MS = 3000; // short for the test; a loaded machine never starves a heartbeat past it

let cluster: TestCluster;
let a: string;
let b: string;
const clients = socketClients();
const { connect } = clients;

beforeAll(async () => {
  cluster = await startCluster(2, {
    REPLY_TOKEN_DELAY_MS: '120',
    SPEECH_ENGINE: 'none',
    INSTANCE_LEASE_MS: String(LEASE_MS),
  });
  [a, b] = cluster.instances.map((i) => i.url) as [string, string];
}, 120_000);
afterAll(async () => {
  clients.closeAll();
  await cluster?.stop();
});

const deltas = (events: RecordedEvent[], replyId: string) =>
  events.filter((e) => e.event === ServerEvent.chatDelta && e.payload.replyId === replyId);
/** The deltas' text in seq order, each seq once (a client drops repeats: C-4). */
const textOf = (events: RecordedEvent[], replyId: string) =>
  [...new Map(deltas(events, replyId).map((e) => [Number(e.payload.seq), String(e.payload.text)]))]
    .sort(([x], [y]) => x - y)
    .map(([, text]) => text)
    .join('');
/** The seqs up to `last` (default: the highest this client saw) that this client never received. */
const missingSeqs = (c: TestClient, replyId: string, last?: number) => {
  const seen = new Set(c.replyEvents(replyId).map((e) => Number(e.payload.seq)));
  const upTo = last ?? Math.max(-1, ...seen);
  return Array.from({ length: upTo + 1 }, (_, seq) => seq).filter((seq) => !seen.has(seq));
};
const endOf = (c: TestClient, replyId: string) =>
  c.replyEvents(replyId).find((e) => e.event === ServerEvent.chatReply || e.event === ServerEvent.chatError);

/** A user with a socket on A (the sender) and one on B watching the same session. */
async function twoTabs(name: string) {
  const user: AuthSession = await registerUser(a, { name });
  const { session } = await apiClient(a, { token: user.token })(routes.chat.createSession, {
    body: { title: name },
  });
  const onA = await connect(a, user.token);
  const onB = await connect(b, user.token);
  expect((await onB.request(ClientEvent.sessionWatch, { sessionId: session.sessionId })).ok).toBe(true);
  return { user, sessionId: session.sessionId, onA, onB };
}

/** A long message: the builtin engine answers it at length, so the reply streams for seconds. */
const LONG = 'Cuéntame con mucho detalle qué harías un domingo tranquilo en la montaña, paso a paso.';

async function send(c: TestClient, sessionId: string, clientMessageId: string) {
  const ack = await c.request(ClientEvent.chatSend, { clientMessageId, sessionId, message: LONG });
  if (!ack.ok) throw new Error(JSON.stringify(ack.error));
  return ack.data;
}

async function storedReplies(url: string, token: string, sessionId: string) {
  const page = await apiClient(url, { token })(routes.chat.listMessages, {
    query: { sessionId, page: 1, pageSize: MESSAGE_PAGE_SIZE_MAX },
  });
  return page.items.filter((m) => m.role === 'assistant');
}

describe('M-5 replies in flight across instances', () => {
  it('M-5 chat:cancel sent to B stops the reply running on A; what was produced is kept as incomplete (C-7)', async () => {
    const { user, sessionId, onA, onB } = await twoTabs('Cancelar en B');
    const { replyId } = await send(onA, sessionId, 'cancel-1');
    await onB.waitFor((e) => deltas(e, replyId).length >= 3);
    const cancel = await onB.request(ClientEvent.chatCancel, { replyId });
    expect(cancel).toEqual({ ok: true, data: { cancelled: true } });
    await Promise.all([onA.waitForReplyEnd(replyId), onB.waitForReplyEnd(replyId)]);
    const end = endOf(onB, replyId);
    expect(end?.event).toBe(ServerEvent.chatReply);
    const message = end?.payload.message as { content: string; isComplete: boolean };
    expect(message.isComplete).toBe(false);
    expect(message.content).toBe(textOf(onB.events, replyId));
    const [stored] = await storedReplies(b, user.token, sessionId);
    expect(stored).toMatchObject({ _id: replyId, isComplete: false, content: message.content });
    expect([...onA.problems, ...onB.problems]).toEqual([]);
  });

  it('M-5 the same message sent again through B while its reply runs on A gets that reply, never a second one (C-2)', async () => {
    const { user, sessionId, onA, onB } = await twoTabs('Reenviar en B');
    const first = await send(onA, sessionId, 'again-1');
    await onB.waitFor((e) => deltas(e, first.replyId).length >= 2);
    const again = await send(onB, sessionId, 'again-1');
    expect(again).toMatchObject({ duplicate: true, replyId: first.replyId });
    expect(again.message._id).toBe(first.message._id);
    await Promise.all([
      onA.waitForReplyEnd(first.replyId, 60_000),
      onB.waitForReplyEnd(first.replyId, 60_000),
    ]);
    expect(endOf(onB, first.replyId)?.event).toBe(ServerEvent.chatReply);
    const replies = await storedReplies(b, user.token, sessionId);
    expect(replies).toMatchObject([
      { _id: first.replyId, isComplete: true, content: textOf(onB.events, first.replyId) },
    ]);
  });

  it('M-1 M-5 Redis restarted mid-stream, empty: a resend meanwhile gets the reply in flight, not a second one, and both tabs receive every event of it (C-4)', async () => {
    const { user, sessionId, onA, onB } = await twoTabs('Reiniciar Redis');
    const first = await send(onA, sessionId, 'restart-1');
    await onB.waitFor((e) => deltas(e, first.replyId).length >= 3);
    // The test's Redis keeps nothing (--save '' --appendonly no): the registry's keys and the
    // stream's recent entries go with it. The message is sent again through B while Redis is
    // down, and once more as soon as it is back, empty.
    await cluster.redis.down();
    const whileDown = await send(onB, sessionId, 'restart-1');
    await sleep(300); // A streams on meanwhile
    await cluster.redis.up();
    const onceBack = await send(onB, sessionId, 'restart-1');
    expect(whileDown).toMatchObject({ duplicate: true, replyId: first.replyId });
    expect(onceBack).toMatchObject({ duplicate: true, replyId: first.replyId });
    // The reply's own end, as its instance sent it: A's socket is on that instance.
    await onA.waitForReplyEnd(first.replyId, 60_000);
    const lastSeq = Number(endOf(onA, first.replyId)?.payload.seq);
    for (const tab of [onA, onB]) {
      await tab.waitForReplyEnd(first.replyId, 60_000);
      // Every seq from chat:typing (0) to the reply's chat:reply, none missing (repeats are the
      // client's to drop). Counted to the reply's last seq, not the tab's: a resend answered after
      // the reply was stored gets its chat:reply at once, at seq 0 (C-2), while the events Redis
      // lost may still be on their way back (M-1).
      const missing = () => missingSeqs(tab, first.replyId, lastSeq);
      await tab.waitFor(() => missing().length === 0, 10_000).catch(() => undefined);
      expect(missing()).toEqual([]);
    }
    const end = endOf(onB, first.replyId)?.payload.message as { content: string; isComplete: boolean };
    expect(end.isComplete).toBe(true);
    expect(textOf(onA.events, first.replyId)).toBe(end.content);
    expect(textOf(onB.events, first.replyId)).toBe(end.content);
    expect(await storedReplies(b, user.token, sessionId)).toMatchObject([
      { _id: first.replyId, isComplete: true, content: end.content },
    ]);
    expect([...onA.problems, ...onB.problems]).toEqual([]);
  });

  it('M-5 kill -9 of the instance streaming a reply: within the lease it is stored and announced as incomplete, and a resend on B is answered anew', async () => {
    const { user, sessionId, onA, onB } = await twoTabs('Matar A');
    const { replyId, message } = await send(onA, sessionId, 'kill-1');
    // Past REPLY_FLUSH_MS of streaming: some text is stored (C-5).
    await onB.waitFor((e) => deltas(e, replyId).length >= 8);
    const [instanceA] = cluster.instances;
    await stopProcess(instanceA!.child, 'SIGKILL');
    onA.close();

    await onB.waitForReplyEnd(replyId, 4 * LEASE_MS + 10_000);
    const end = endOf(onB, replyId);
    expect(end?.event).toBe(ServerEvent.chatReply);
    const announced = end?.payload.message as { content: string; isComplete: boolean };
    expect(announced.isComplete).toBe(false);
    expect(announced.content.length).toBeGreaterThan(0);
    expect(textOf(onB.events, replyId).startsWith(announced.content)).toBe(true);
    const [stored] = await storedReplies(b, user.token, sessionId);
    expect(stored).toMatchObject({ _id: replyId, isComplete: false, content: announced.content });

    // No longer in flight anywhere: the same message sent again gets a new, complete reply.
    const resent = await send(onB, sessionId, 'kill-1');
    expect(resent).toMatchObject({ duplicate: true });
    expect(resent.message._id).toBe(message._id);
    expect(resent.replyId).not.toBe(replyId);
    await onB.waitForReplyEnd(resent.replyId, 60_000);
    expect(await storedReplies(b, user.token, sessionId)).toMatchObject([
      { _id: resent.replyId, isComplete: true },
    ]);
    expect(onB.problems).toEqual([]);
  });
});
