import { ClientEvent, ServerEvent, routes, type AuthSession, type ChatReply } from '@alma/protocol';
import type { SpeechSynthesizer } from '@alma/server';
import { createFakeSynthesizer } from '@alma/server/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, HttpError, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type RecordedEvent, type TestClient } from '../fixtures/socket.ts';

/**
 * Streamed speech (protocol/SPEC.md S-1…S-7) through a real server and a real socket.io client.
 * The synthesiser is chosen by SPEECH_SYNTH: `fake` (default) injects the deterministic test
 * double of server/src/test-support/speech.ts — every word 300 ms, WAV audio — so the timings
 * below are exact; `real` runs the same tests against the one SPEECH_ENGINE configures.
 */
const REAL = process.env.SPEECH_SYNTH === 'real';
const LONG_MESSAGE =
  'Hoy ha sido un día muy largo. Cuéntame algo bonito, por favor, y dime qué harías tú en mi lugar.';

const servers: TestServer[] = [];
const clients: TestClient[] = [];

async function start(
  env: Record<string, string> = {},
  speech?: SpeechSynthesizer | null,
  extra: Parameters<typeof startTestServer>[2] = {},
  dataDir?: string,
): Promise<TestServer> {
  const overrides = { ...(speech === undefined || REAL ? {} : { speech }), ...extra };
  const server = await startTestServer(env, dataDir, overrides);
  servers.push(server);
  return server;
}

async function connect(server: TestServer, user: AuthSession): Promise<TestClient> {
  const c = connectClient(server.url, user.token);
  clients.push(c);
  await c.connected();
  return c;
}

async function send(c: TestClient, clientMessageId: string, message = LONG_MESSAGE) {
  const ack = await c.request(ClientEvent.chatSend, { clientMessageId, message });
  if (!ack.ok) throw new Error(JSON.stringify(ack.error));
  return ack.data;
}

const chunksOf = (events: RecordedEvent[]) => events.filter((e) => e.event === ServerEvent.speechChunk);
const replyOf = (events: RecordedEvent[]) =>
  events.find((e) => e.event === ServerEvent.chatReply)?.payload as
    | { reply: ChatReply; message: { content: string; audioUrl: string | null; isComplete: boolean } }
    | undefined;
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.dispose();
});

describe('speech with a synthesiser', () => {
  let server: TestServer;
  let user: AuthSession;
  let other: AuthSession;
  let c: TestClient;
  let events: RecordedEvent[];
  let audioUrl: string;

  beforeAll(async () => {
    server = await start({ REPLY_TOKEN_DELAY_MS: '25' }, createFakeSynthesizer({ delayMs: 5 }));
    user = await registerUser(server.url);
    other = await registerUser(server.url);
    c = await connect(server, user);
    const sent = await send(c, 'speech-1');
    await c.waitForReplyEnd(sent.replyId);
    events = c.replyEvents(sent.replyId);
  });

  it('S-1/C-4 emits several speech:chunk in order, the first while text still streams', () => {
    expect(c.problems).toEqual([]);
    expect(events.map((e) => e.payload.seq)).toEqual(events.map((_, i) => i));
    expect(events.at(-1)?.event).toBe('chat:reply');
    const chunks = chunksOf(events);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    const firstChunk = events.findIndex((e) => e.event === ServerEvent.speechChunk);
    const lastDelta = events.findLastIndex((e) => e.event === ServerEvent.chatDelta);
    expect(firstChunk).toBeGreaterThan(0);
    expect(firstChunk).toBeLessThan(lastDelta);
  });

  it('S-1 chunks carry audio, duration, words and visemes, and together say the reply text', () => {
    const chunks = chunksOf(events);
    for (const { payload } of chunks) {
      expect((payload.audio as Uint8Array).byteLength).toBeGreaterThan(44);
      expect(payload.mimeType).toMatch(/^audio\//);
      expect(payload.durationMs).toBeGreaterThan(0);
      expect((payload.words as unknown[]).length).toBeGreaterThan(0);
      expect((payload.visemes as unknown[]).length).toBeGreaterThan(0);
    }
    const spoken = squash(chunks.map((e) => e.payload.text as string).join(' '));
    expect(spoken).toBe(squash(replyOf(events)?.reply.reply ?? ''));
  });

  it('S-1 a gesture comes as avatar:intent at the start of its chunk in the speech timeline', () => {
    const intents = events.filter((e) => e.event === ServerEvent.avatarIntent);
    for (const intent of intents) {
      const i = events.indexOf(intent);
      const next = events.slice(i + 1).find((e) => e.event === ServerEvent.speechChunk);
      if (!next) continue;
      const before = chunksOf(events.slice(0, i)).reduce((ms, e) => ms + (e.payload.durationMs as number), 0);
      expect(intent.payload.atMs).toBe(before);
    }
  });

  it('S-4 the stored reply has an audioUrl that serves the whole reply, with ranges', async () => {
    const reply = replyOf(events);
    expect(reply?.message.audioUrl).toMatch(/^\/audio\/[\w-]+\.\w+$/);
    expect(reply?.reply.audioUrl).toBe(reply?.message.audioUrl);
    audioUrl = reply?.message.audioUrl ?? '';
    const res = await fetch(new URL(audioUrl, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\//);
    expect(res.headers.get('cache-control')).toContain('immutable');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(1000);
    if (!REAL) {
      const totalMs = chunksOf(events).reduce((ms, e) => ms + (e.payload.durationMs as number), 0);
      expect(bytes.byteLength).toBe(44 + (totalMs * 16_000 * 2) / 1000);
    }
    const ranged = await fetch(new URL(audioUrl, server.url), { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${bytes.byteLength}`);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    const beyond = await fetch(new URL(audioUrl, server.url), {
      headers: { range: `bytes=${bytes.byteLength}-` },
    });
    expect(beyond.status).toBe(416);
  });

  it('S-5 /audio/check answers true for the owner, false for another user and unknown files', async () => {
    const file = audioUrl.slice('/audio/'.length);
    const mine = apiClient(server.url, { token: user.token });
    const theirs = apiClient(server.url, { token: other.token });
    expect(await mine(routes.audio.check, { params: { filename: file } })).toEqual({ exists: true });
    expect(await theirs(routes.audio.check, { params: { filename: file } })).toEqual({ exists: false });
    expect(await mine(routes.audio.check, { params: { filename: 'nope.wav' } })).toEqual({ exists: false });
    const bad = await mine(routes.audio.check, { params: { filename: '..%2Fjwt-secret' } }).catch(
      (e: unknown) => e,
    );
    expect(bad).toBeInstanceOf(HttpError);
    expect((bad as HttpError).status).toBe(400);
    const noToken = await fetch(new URL(`/audio/check/${file}`, server.url));
    expect(noToken.status).toBe(401);
  });

  it('S-4 file names are checked strictly: no way out of the audio folder', async () => {
    for (const path of [
      '/audio/..%2Fjwt-secret',
      '/audio/%2e%2e%2fjwt-secret',
      '/audio/jwt-secret',
      '/audio/a.b.wav',
    ]) {
      const res = await fetch(new URL(path, server.url));
      expect(res.status, path).toBe(404);
    }
  });

  it('S-2 chat:cancel with heardUntilMs keeps only the heard words, marked incomplete, and cuts the audio', async () => {
    const slow = await start({ REPLY_TOKEN_DELAY_MS: '60' }, createFakeSynthesizer({ delayMs: 5 }));
    const someone = await registerUser(slow.url);
    const sc = await connect(slow, someone);
    const sent = await send(sc, 'barge-in-1');
    await sc.waitFor((all) => chunksOf(all).some((e) => e.payload.replyId === sent.replyId));
    const first = chunksOf(sc.replyEvents(sent.replyId))[0]?.payload;
    const words = (first?.words ?? []) as { t: number; text: string }[];
    expect(words.length).toBeGreaterThanOrEqual(2);
    const heardUntilMs = (words[1]?.t ?? 0) + 1; // two words had started
    const cancel = await sc.request(ClientEvent.chatCancel, { replyId: sent.replyId, heardUntilMs });
    expect(cancel).toEqual({ ok: true, data: { cancelled: true } });
    const reply = replyOf(sc.replyEvents(sent.replyId));
    expect(reply?.message.isComplete).toBe(false);
    const chunkText = (first?.text as string).trim();
    const expected = chunkText.split(/\s+/).slice(0, 2).join(' ');
    expect(reply?.message.content).toBe(expected);
    const call = apiClient(slow.url, { token: someone.token });
    const page = await call(routes.chat.listMessages, { query: { sessionId: sent.sessionId } });
    const stored = page.items.find((m) => m._id === sent.replyId);
    expect(stored).toMatchObject({ content: expected, isComplete: false });
    expect(stored?.audioUrl).toMatch(/^\/audio\//);
    const audio = await fetch(new URL(stored?.audioUrl ?? '', slow.url));
    const bytes = await audio.arrayBuffer();
    if (!REAL) expect(bytes.byteLength).toBe(44 + Math.round((heardUntilMs * 16_000) / 1000) * 2);
    // Nothing of the reply arrives after its chat:reply.
    const events = sc.replyEvents(sent.replyId);
    expect(events.at(-1)?.event).toBe('chat:reply');
  });

  it('S-6 DELETE /audio/cleanup?type=all removes the caller’s files and clears their audioUrl', async () => {
    const call = apiClient(server.url, { token: user.token });
    const bad = await call(routes.audio.cleanup, { query: { type: 'some' as 'all' } }).catch(
      (e: unknown) => e,
    );
    expect((bad as HttpError).status).toBe(400);
    // Another user's cleanup leaves this user's file alone.
    const theirs = apiClient(server.url, { token: other.token });
    expect(await theirs(routes.audio.cleanup, { query: { type: 'all' } })).toEqual({
      success: true,
      deletedFiles: 0,
      clearedMessages: 0,
    });
    expect((await fetch(new URL(audioUrl, server.url))).status).toBe(200);
    const result = await call(routes.audio.cleanup, { query: { type: 'all' } });
    expect(result).toEqual({ success: true, deletedFiles: 1, clearedMessages: 1 });
    expect((await fetch(new URL(audioUrl, server.url))).status).toBe(404);
    const file = audioUrl.slice('/audio/'.length);
    expect(await call(routes.audio.check, { params: { filename: file } })).toEqual({ exists: false });
    const sessions = await call(routes.chat.listSessions);
    const sessionId = sessions.sessions[0]?.sessionId ?? '';
    const page = await call(routes.chat.listMessages, { query: { sessionId } });
    expect(page.items.every((m) => m.audioUrl === null)).toBe(true);
  });
});

describe('speech edge cases', () => {
  it('S-3 a synthesis failure keeps the text reply, stored without audio', async () => {
    // Always the test double: a real engine does not fail on demand.
    const server = await startTestServer({}, undefined, {
      speech: createFakeSynthesizer({ fail: () => true }),
    });
    servers.push(server);
    const user = await registerUser(server.url);
    const c = await connect(server, user);
    const sent = await send(c, 'fails-1');
    await c.waitForReplyEnd(sent.replyId);
    const events = c.replyEvents(sent.replyId);
    expect(chunksOf(events)).toEqual([]);
    const reply = replyOf(events);
    expect(reply?.message).toMatchObject({ isComplete: true, audioUrl: null });
    expect(reply?.message.content.length).toBeGreaterThan(0);
  });

  it('S-3/S-10 once a clause fails, the reply’s later clauses are called off, not voiced for nothing', async () => {
    // Each clause takes 1 s; the first fails, and the later ones were already asked for.
    let answered = 0;
    const synth = createFakeSynthesizer({ delayMs: 1000, fail: () => answered++ === 0 });
    const server = await startTestServer({}, undefined, { speech: synth });
    servers.push(server);
    const c = await connect(server, await registerUser(server.url));
    const sent = await send(c, 'fails-later-1');
    await c.waitForReplyEnd(sent.replyId);
    const reply = c.replyEvents(sent.replyId).at(-1)?.payload as { speech?: string };
    expect(reply.speech).toBe('failed');
    expect(synth.calls.length).toBeGreaterThan(1);
    expect(synth.calls.slice(1).map((call) => call.signal.aborted)).toEqual(
      synth.calls.slice(1).map(() => true),
    );
  });

  it("S-10 each later clause is asked for with the clause before it, its wait counted from that one's end", async () => {
    const synth = createFakeSynthesizer();
    const server = await startTestServer({}, undefined, { speech: synth });
    servers.push(server);
    const c = await connect(server, await registerUser(server.url));
    const sent = await send(c, 'after-1');
    await c.waitForReplyEnd(sent.replyId);
    expect(synth.calls.length).toBeGreaterThan(1);
    expect(synth.calls.map((call) => [call.first, call.after instanceof Promise])).toEqual(
      synth.calls.map((_, i) => [i === 0, i > 0]),
    );
  });

  it('S-1 SPEECH_ENGINE=none: no speech:chunk, audioUrl null, /health says none', async () => {
    const server = await start({ SPEECH_ENGINE: 'none' }, null);
    const user = await registerUser(server.url);
    const c = await connect(server, user);
    const sent = await send(c, 'silent-1');
    await c.waitForReplyEnd(sent.replyId);
    const events = c.replyEvents(sent.replyId);
    expect(chunksOf(events)).toEqual([]);
    expect(replyOf(events)?.message.audioUrl).toBeNull();
    const health = await apiClient(server.url)(routes.health.health);
    expect(health.engines.speech).toBe('none');
  });

  it('S-7 the retention sweep removes old files; messages keep audioUrl, the check says false', async () => {
    const first = await start({}, createFakeSynthesizer());
    const user = await registerUser(first.url);
    const c = await connect(first, user);
    const sent = await send(c, 'old-1', 'Hola. ¿Qué tal?');
    await c.waitForReplyEnd(sent.replyId);
    const audioUrl = replyOf(c.replyEvents(sent.replyId))?.message.audioUrl ?? '';
    expect(audioUrl).toMatch(/^\/audio\//);
    c.close();
    // The same data, a server whose clock is eight days on (SPEECH_RETENTION_DAYS=7): its first
    // sweep, at start-up, removes the file.
    const dataDir = first.dataDir;
    await first.close();
    const later = await start(
      { SPEECH_RETENTION_DAYS: '7' },
      createFakeSynthesizer(),
      { clock: () => new Date(Date.now() + 8 * 24 * 3600 * 1000) },
      dataDir,
    );
    const call = apiClient(later.url, { token: user.token });
    const file = audioUrl.slice('/audio/'.length);
    for (let i = 0; i < 50 && (await fetch(new URL(audioUrl, later.url))).status !== 404; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await fetch(new URL(audioUrl, later.url))).status).toBe(404);
    expect(await call(routes.audio.check, { params: { filename: file } })).toEqual({ exists: false });
    const page = await call(routes.chat.listMessages, { query: { sessionId: sent.sessionId } });
    expect(page.items.find((m) => m._id === sent.replyId)?.audioUrl).toBe(audioUrl);
  });
});
