import { ClientEvent, ServerEvent } from '@alma/protocol';
import {
  createSpeechSynthesizer,
  loadConfig,
  mp3Frames,
  type ReplyChunk,
  type ReplyEngine,
} from '@alma/server';
import { afterAll, describe, expect, it } from 'vitest';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/**
 * Speaking under load (issue 14; SPEC.md C-16, S-4) over real sockets: a fast engine's text
 * streams as it is produced, and a reply's audio is encoded once.
 */
const servers: TestServer[] = [];
const clients: TestClient[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.dispose();
});

async function connectedUser(server: TestServer): Promise<TestClient> {
  const user = await registerUser(server.url);
  const client = connectClient(server.url, user.token);
  clients.push(client);
  await client.connected();
  return client;
}

/** An engine as fast as can be: every piece is ready at once (no await between them). */
const PIECES = 400;
const instant: ReplyEngine = {
  name: 'instant',
  async *stream(request): AsyncIterable<ReplyChunk> {
    for (let i = 0; i < PIECES; i++) {
      if (request.signal.aborted) return;
      yield { type: 'text', text: `palabra${i} ` };
    }
  },
};

describe('C-16 a fast engine streams', () => {
  it('its first delta reaches the client while the reply is still being written: a cancel sent on it stops the reply', async () => {
    const server = await startTestServer({}, undefined, { engine: instant, speech: null });
    servers.push(server);
    const c = await connectedUser(server);
    const cancel: { answer?: Promise<unknown> } = {};
    c.socket.once(ServerEvent.chatDelta, (delta: { replyId: string }) => {
      cancel.answer = c.request(ClientEvent.chatCancel, { replyId: delta.replyId });
    });
    const ack = await c.request(ClientEvent.chatSend, { clientMessageId: 'fast-1', message: 'Hola' });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    await c.waitForReplyEnd(ack.data.replyId);
    expect(await cancel.answer).toEqual({ ok: true, data: { cancelled: true } });
    const events = c.replyEvents(ack.data.replyId);
    const deltas = events.filter((e) => e.event === ServerEvent.chatDelta);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.length).toBeLessThan(PIECES);
    const last = events.at(-1);
    expect(last?.event).toBe(ServerEvent.chatReply);
    expect(last?.payload).toMatchObject({ message: { isComplete: false } });
  });
});

/** A reply of three sentences, written a word at a time like the builtin engine. */
const SENTENCES =
  'Hola, qué alegría verte por aquí. Hoy quiero contarte algo bonito. Me alegra mucho, de verdad.';
const paced: ReplyEngine = {
  name: 'paced',
  async *stream(request): AsyncIterable<ReplyChunk> {
    for (const piece of SENTENCES.match(/\S+\s*/g) ?? []) {
      if (request.signal.aborted) return;
      await new Promise((r) => setTimeout(r, 5));
      yield { type: 'text', text: piece };
    }
  },
};

describe('S-4 encoded once', () => {
  it('the stored MP3 is the speech:chunk audio frames the client received, joined byte for byte under one Info frame (S-8)', async () => {
    // The builtin synthesiser (espeak-ng + MP3), whatever SPEECH_ENGINE the run configures.
    const speech = createSpeechSynthesizer(
      loadConfig({ DATA_DIR: '/tmp/alma-s4-config', SPEECH_ENGINE: 'builtin' }),
    );
    const server = await startTestServer({}, undefined, { engine: paced, speech });
    servers.push(server);
    const c = await connectedUser(server);
    const ack = await c.request(ClientEvent.chatSend, { clientMessageId: 'once-1', message: 'Hola' });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    await c.waitForReplyEnd(ack.data.replyId, 60_000);
    const events = c.replyEvents(ack.data.replyId);
    const chunks = events.filter((e) => e.event === ServerEvent.speechChunk).map((e) => e.payload);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.every((p) => p.mimeType === 'audio/mpeg')).toBe(true);
    const reply = events.at(-1)?.payload as { message: { audioUrl: string } };
    const stored = new Uint8Array(
      await (await fetch(new URL(reply.message.audioUrl, server.url))).arrayBuffer(),
    );
    // Each chunk's Info frame (S-8) describes that chunk alone; the file has its own.
    const audioFrames = (bytes: Uint8Array) => {
      const frames = mp3Frames(bytes);
      const last = frames.at(-1);
      return Buffer.from(bytes.subarray(frames[0]?.offset ?? 0, last ? last.offset + last.length : 0));
    };
    expect(mp3Frames(stored)[0]?.offset).toBeGreaterThan(0);
    const sent = Buffer.concat(chunks.map((p) => audioFrames(new Uint8Array(p.audio as Uint8Array))));
    expect(audioFrames(stored).equals(sent)).toBe(true);
    expect((reply as { speech?: string }).speech).toBeUndefined();
  });
});

/** Eight sentences, all ready at once: the reply's text is written long before it is voiced. */
const LONG = Array.from(
  { length: 8 },
  (_, i) => `Esta es la frase número ${i + 1}, dicha con calma y con cariño para ti.`,
).join(' ');
const instantLong: ReplyEngine = {
  name: 'instant-long',
  async *stream(request): AsyncIterable<ReplyChunk> {
    for (const piece of LONG.match(/\S+\s*/g) ?? []) {
      if (request.signal.aborted) return;
      yield await Promise.resolve({ type: 'text' as const, text: piece });
    }
  },
};
const builtin = (env: Record<string, string>) =>
  createSpeechSynthesizer(loadConfig({ DATA_DIR: '/tmp/alma-s8-config', SPEECH_ENGINE: 'builtin', ...env }));

describe('S-9/S-10 speech in worker threads, first clauses first', () => {
  it("text never waits for audio, and a later reply's first clause is voiced before an earlier reply's later clauses", async () => {
    // Nothing waits too long here, however loaded the machine (S-10's refusal is the next test's).
    const speech = builtin({ SPEECH_WORKERS: '1', SPEECH_MAX_WAIT_MS: '600000' });
    const server = await startTestServer({}, undefined, { engine: instantLong, speech });
    servers.push(server);
    const [a, b] = [await connectedUser(server), await connectedUser(server)];
    const arrivals: string[] = [];
    a.socket.on(ServerEvent.speechChunk, () => arrivals.push('a'));
    b.socket.on(ServerEvent.speechChunk, () => arrivals.push('b'));
    const sentA = await a.request(ClientEvent.chatSend, { clientMessageId: 'a-1', message: 'Hola' });
    if (!sentA.ok) throw new Error(JSON.stringify(sentA.error));
    // S-9: the whole text arrives while the first clauses are still being voiced.
    await a.waitFor(
      (e) =>
        e
          .filter((x) => x.event === ServerEvent.chatDelta)
          .map((x) => x.payload.text)
          .join('') === LONG,
    );
    expect(arrivals.filter((x) => x === 'a').length).toBeLessThan(2);
    const sentB = await b.request(ClientEvent.chatSend, { clientMessageId: 'b-1', message: 'Hola' });
    if (!sentB.ok) throw new Error(JSON.stringify(sentB.error));
    await a.waitForReplyEnd(sentA.data.replyId, 120_000);
    await b.waitForReplyEnd(sentB.data.replyId, 120_000);
    // S-10: b's first clause was served before a's later ones still waiting.
    expect(arrivals.indexOf('b')).toBeLessThan(arrivals.lastIndexOf('a'));
    expect(a.replyEvents(sentA.data.replyId).at(-1)?.payload.speech).toBeUndefined();
    expect(a.problems).toEqual([]);
  });

  it('a reply that cannot be voiced in time goes on as text, whole, with speech: busy — no socket stalls', async () => {
    const speech = builtin({ SPEECH_WORKERS: '1', SPEECH_QUEUE_MAX: '1' });
    const server = await startTestServer({}, undefined, { engine: instantLong, speech });
    servers.push(server);
    const users = await Promise.all(Array.from({ length: 4 }, () => connectedUser(server)));
    const sent = await Promise.all(
      users.map(async (c, i) => {
        const ack = await c.request(ClientEvent.chatSend, { clientMessageId: `busy-${i}`, message: 'Hola' });
        if (!ack.ok) throw new Error(JSON.stringify(ack.error));
        await c.waitForReplyEnd(ack.data.replyId, 120_000);
        return c.replyEvents(ack.data.replyId).at(-1)?.payload as {
          message: { content: string; audioUrl: string | null; isComplete: boolean };
          speech?: string;
        };
      }),
    );
    for (const reply of sent) expect(reply.message).toMatchObject({ content: LONG, isComplete: true });
    const busy = sent.filter((r) => r.speech === 'busy');
    expect(busy.length).toBeGreaterThan(0);
    for (const reply of busy) expect(reply.message.audioUrl).toBeNull();
    for (const c of users) {
      expect(c.socket.connected).toBe(true);
      expect(c.problems).toEqual([]);
    }
  });
});
