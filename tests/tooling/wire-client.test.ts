import { PROTOCOL_VERSION, ServerEvent, type AuthSession } from '@alma/protocol';
import { createFakeSynthesizer } from '@alma/server/test-support';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, traceReply, type BenchSocket } from '../bench/support/reply-client.ts';
import { parsePacket, WireSocket } from '../bench/support/wire-client.ts';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';

/**
 * The speech bench's light client (tests/bench/support/wire-client.ts) against a real Alma server
 * and a real socket.io server: it must see what socket.io-client sees, or the bench would measure
 * something else.
 */
interface Heard {
  event: string;
  seq: number | undefined;
  text: string | undefined;
  audioBytes: number | undefined;
}

function listen(socket: BenchSocket): Heard[] {
  const heard: Heard[] = [];
  socket.onAny((event, data) => {
    const payload = data as { seq?: number; text?: string; audio?: Uint8Array | ArrayBuffer };
    heard.push({
      event,
      seq: payload.seq,
      text: payload.text,
      audioBytes: payload.audio?.byteLength,
    });
  });
  return heard;
}

function byEvent(heard: Heard[]): Record<string, Omit<Heard, 'event' | 'seq'>[]> {
  const streams: Record<string, Omit<Heard, 'event' | 'seq'>[]> = {};
  for (const { event, text, audioBytes } of heard) (streams[event] ??= []).push({ text, audioBytes });
  return streams;
}

describe('the wire client beside socket.io-client, on Alma', () => {
  let server: TestServer;
  let users: AuthSession[];

  beforeAll(async () => {
    server = await startTestServer({ REPLY_TOKEN_DELAY_MS: '5' }, undefined, {
      speech: createFakeSynthesizer({ delayMs: 2 }),
    });
    users = [await registerUser(server.url), await registerUser(server.url)];
  });
  afterAll(() => server.dispose());

  it('hears the same reply: the same events in each stream, seqs, clauses and audio bytes', async () => {
    const message = 'Hola, ¿qué tal estás hoy? Cuéntame algo bonito.';
    const seen: Heard[][] = [];
    for (const [k, kind] of (['socket.io', 'wire'] as const).entries()) {
      const socket = await connect(server.url, users[k]!.token, kind);
      const heard = listen(socket);
      const trace = await traceReply(socket, message, `wire-test-${k}`, 30_000);
      socket.disconnect();
      expect(trace).toMatchObject({ outcome: 'reply', gaps: 0, reorders: 0, disconnected: false });
      expect(trace.ackAt).toBeGreaterThan(trace.sentAt);
      expect(trace.chunkAt.length).toBeGreaterThan(1);
      seen.push(heard.filter((h) => h.seq !== undefined));
    }
    const [official, wire] = seen as [Heard[], Heard[]];
    expect(wire.map((h) => h.event)).toContain(ServerEvent.speechChunk);
    // Two replies, one after the other: where a clause's audio (and the gesture that goes with it)
    // falls among the text deltas depends on when the synthesiser answered, so each event's own
    // stream is compared in order, and both replies must number the same events 1…n.
    expect(byEvent(wire)).toEqual(byEvent(official));
    expect(wire.map((h) => h.seq)).toEqual(official.map((h) => h.seq));
    const chunk = wire.find((h) => h.event === ServerEvent.speechChunk);
    expect(chunk?.audioBytes).toBeGreaterThan(0);
  });

  it("is refused as socket.io-client is, with the server's code and words", async () => {
    const official = (await connect(server.url, 'not-a-token').catch((e: unknown) => e)) as Error & {
      data: unknown;
    };
    const wire = (await WireSocket.connect(server.url, {
      token: 'not-a-token',
      protocolVersion: PROTOCOL_VERSION,
    }).catch((e: unknown) => e)) as Error & { data: unknown };
    expect(official.data).toMatchObject({ code: 'unauthorized' });
    expect({ message: wire.message, data: wire.data }).toEqual({
      message: official.message,
      data: official.data,
    });
  });
});

describe('the wire client on a bare socket.io server', () => {
  const http = createServer();
  const io = new Server(http, { pingInterval: 40, pingTimeout: 40 });
  let url: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    io.on('connection', (socket) => {
      socket.on('echo', (payload: unknown, ack: (answer: unknown) => void) => ack({ echoed: payload }));
      socket.on('binary', () => socket.emit('bytes', { a: Buffer.from([1, 2, 3]), b: [Buffer.from([4])] }));
      socket.on('leave', () => socket.disconnect(true));
    });
  });
  afterAll(async () => {
    await io.close();
  });

  it('answers pings: still connected after many ping intervals', async () => {
    const socket = await WireSocket.connect(url, {});
    let lost = false;
    socket.once('disconnect', () => (lost = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const answer = await new Promise((resolve) => {
      socket.emit('echo', { n: 1 }, resolve);
      socket.once('disconnect', () => resolve('disconnected'));
    });
    expect(answer).toEqual({ echoed: { n: 1 } });
    expect(lost).toBe(false);
    socket.disconnect();
  });

  it('puts binary attachments in place of their placeholders', async () => {
    const socket = await WireSocket.connect(url, {});
    const bytes = new Promise<{ a: Buffer; b: Buffer[] }>((resolve) => socket.on('bytes', resolve));
    socket.emit('binary', {});
    const got = await bytes;
    expect([...got.a]).toEqual([1, 2, 3]);
    expect([...got.b[0]!]).toEqual([4]);
    socket.disconnect();
  });

  it('tells its listeners when the server ends the connection', async () => {
    const socket = await WireSocket.connect(url, {});
    const lost = new Promise<void>((resolve) => socket.once('disconnect', resolve));
    socket.emit('leave', {});
    await expect(lost).resolves.toBeUndefined();
  });

  it('reads packet types, attachment counts and ack ids', () => {
    expect(parsePacket('42["a",{"x":1}]')).toEqual({
      type: '2',
      ackId: undefined,
      attachments: 0,
      data: ['a', { x: 1 }],
    });
    expect(parsePacket('4317[{"ok":true}]')).toEqual({
      type: '3',
      ackId: 17,
      attachments: 0,
      data: [{ ok: true }],
    });
    expect(parsePacket('452-["b",{"_placeholder":true,"num":0}]')).toMatchObject({
      type: '5',
      attachments: 2,
    });
    expect(parsePacket('40{"sid":"s"}')).toMatchObject({ type: '0', data: { sid: 's' } });
    expect(() => parsePacket('42/admin,["a"]')).toThrow(/namespaces/);
  });
});
