import {
  ClientEvent,
  ErrorCode,
  HealthSchema,
  ServerEvent,
  SocketAckErrorSchema,
  clientEvents,
  routes,
  type AuthSession,
  type ClientEventName,
} from '@alma/protocol';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';
import {
  containsBinary,
  fuzzSeed,
  hostile,
  mutatedFor,
  nastyString,
  runPool,
  safeStringify,
  validFor,
  type Pool,
} from './arbitraries.ts';

/**
 * Socket fuzzing (SPEC.md P-4): every client event gets thousands of random payloads over real
 * socket.io clients — schema-shaped, broken, hostile, binary, huge, deep — plus unknown event
 * names, events without an ack and events with extra arguments. Every ack is a valid success or
 * `{ ok: false, error }` (never `server_error`), an invalid payload is `invalid_payload`, no client
 * is disconnected, and the server stays healthy. FUZZ_SEED replays a run; FUZZ_RUNS scales it.
 */

const RUNS_PER_EVENT = Number(process.env.FUZZ_RUNS) || 2000;
const CLIENTS = 4;
const IN_FLIGHT_PER_CLIENT = 8;
const ACK_TIMEOUT_MS = 10_000;
const seed = fuzzSeed();

/** socket.io's typed emit cannot take arbitrary names and payloads; fuzzing needs exactly that. */
interface LooseSocket {
  emit: (event: string, ...args: unknown[]) => unknown;
  timeout: (ms: number) => { emitWithAck: (event: string, ...args: unknown[]) => Promise<unknown> };
}
const loose = (c: TestClient) => c.socket as unknown as LooseSocket;

/** socket.io-client refuses these names itself; they never reach the server. */
const RESERVED = new Set([
  'connect',
  'connect_error',
  'disconnect',
  'disconnecting',
  'newListener',
  'removeListener',
]);

type Mode = 'ack' | 'noAck';
interface Emission {
  event: string;
  payload: unknown;
  mode: Mode;
  client: number;
}

let server: TestServer;
let user: AuthSession;
let pool: Pool;
const clients: TestClient[] = [];
const unexpectedDisconnects: string[] = [];
let closing = false;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const eventNames = Object.keys(clientEvents) as ClientEventName[];

const connect = (token: string) => {
  const c = connectClient(server.url, token);
  c.socket.on('disconnect', (reason) => {
    if (!closing) unexpectedDisconnects.push(`client ${clients.indexOf(c)}: ${reason}`);
  });
  clients.push(c);
  return c;
};

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  server = await startTestServer({ SOCKET_EVENT_RATE_LIMIT: '100000' });
  user = await registerUser(server.url, { name: 'Socket Fuzzer' });
  const other = await registerUser(server.url, { name: 'Someone Else' });
  const mine = apiClient(server.url, { token: user.token });
  const theirs = apiClient(server.url, { token: other.token });
  const own = await mine(routes.chat.createSession, { body: { title: 'fuzzing' } });
  const foreign = await theirs(routes.chat.createSession, { body: { title: 'private' } });

  for (let i = 0; i < CLIENTS; i++) connect(user.token);
  await Promise.all(clients.map((c) => c.connected()));
  const first = clients[0];
  if (!first) throw new Error('no client');
  const sent = await first.request(ClientEvent.chatSend, {
    clientMessageId: 'seed-1',
    sessionId: own.session.sessionId,
    message: 'Hola',
  });
  if (!sent.ok) throw new Error(`seed send failed: ${sent.error.code}`);
  await first.waitForReplyEnd(sent.data.replyId);

  pool = {
    strings: [
      own.session.sessionId,
      foreign.session.sessionId,
      sent.data.replyId,
      sent.data.message._id,
      'seed-1',
      'Hola, ¿cómo estás?',
      'Hello there',
      'audio/webm',
      'default',
      'no-such-reply',
    ],
    byField: {
      sessionId: [own.session.sessionId, own.session.sessionId, foreign.session.sessionId],
      replyId: [sent.data.replyId, 'no-such-reply'],
      mimeType: ['audio/webm', 'audio/ogg; codecs=opus'],
    },
  };
});

afterAll(async () => {
  closing = true;
  for (const c of clients) c.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
  await server?.dispose();
});

function payloadArb(event: ClientEventName): fc.Arbitrary<unknown> {
  const schema = clientEvents[event].payload;
  return fc.oneof(
    // Valid sends start replies: keep them a small share.
    { weight: event === ClientEvent.chatSend ? 1 : 4, arbitrary: validFor(schema, pool) },
    { weight: 6, arbitrary: mutatedFor(schema, pool) },
    { weight: 4, arbitrary: hostile },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 70_000 }).map((a) => Buffer.from(a)) },
    {
      weight: 1,
      arbitrary: fc.record({
        audio: fc.uint8Array({ maxLength: 4096 }).map((a) => Buffer.from(a)),
        message: nastyString,
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(1_000_000, 3_000_000)
        .map((n) => ({ clientMessageId: 'huge', message: 'h'.repeat(n) })),
    },
  );
}

const unknownName: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 30 }),
    fc.constantFrom(
      'chat:Send',
      'chat:send ',
      'CHAT:SEND',
      'admin:delete',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      '',
    ),
  )
  .filter((name) => !RESERVED.has(name) && !Object.hasOwn(clientEvents, name));

function ackSchemaFor(event: string): z.ZodType {
  const declared = Object.hasOwn(clientEvents, event) ? clientEvents[event as ClientEventName] : undefined;
  return declared
    ? z.union([SocketAckErrorSchema, z.object({ ok: z.literal(true), data: declared.result })])
    : SocketAckErrorSchema;
}

/** What the server receives after socket.io's JSON encoding (undefined → null, NaN → null, …). */
const overTheWire = (payload: unknown): unknown =>
  (JSON.parse(JSON.stringify([payload]) ?? '[null]') as unknown[])[0] ?? null;

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
const show = (e: Emission) =>
  `emit(${JSON.stringify(e.event)}, ${clip(containsBinary(e.payload) ? '<binary>' : safeStringify(e.payload))})`;

/** Acks seen, by event and outcome (ok or error code), for the summary. */
const tally = new Map<string, number>();

function checkAck(e: Emission, ack: unknown, failures: string[]): void {
  const known = Object.hasOwn(clientEvents, e.event) ? e.event : 'unknown';
  const outcome =
    (ack as { ok?: unknown }).ok === true
      ? 'ok'
      : ((ack as { error?: { code?: string } }).error?.code ?? '?');
  tally.set(`${known} ${outcome}`, (tally.get(`${known} ${outcome}`) ?? 0) + 1);
  if (!ackSchemaFor(e.event).safeParse(ack).success) {
    failures.push(`ack does not match the protocol: ${clip(safeStringify(ack))}\n    ${show(e)}`);
    return;
  }
  const error = SocketAckErrorSchema.safeParse(ack);
  if (!error.success) {
    if (!Object.hasOwn(clientEvents, e.event)) failures.push(`unknown event answered ok\n    ${show(e)}`);
    return;
  }
  const { code } = error.data.error;
  if (code === ErrorCode.server_error) failures.push(`server_error\n    ${show(e)}`);
  const declared = Object.hasOwn(clientEvents, e.event)
    ? clientEvents[e.event as ClientEventName]
    : undefined;
  if (!declared && code !== ErrorCode.invalid_payload)
    failures.push(`unknown event answered ${code}, not invalid_payload\n    ${show(e)}`);
  // P-4: a payload the schema refuses is answered invalid_payload, whatever else it might be.
  if (
    declared &&
    !containsBinary(e.payload) &&
    !declared.payload.safeParse(overTheWire(e.payload)).success &&
    code !== ErrorCode.invalid_payload
  ) {
    failures.push(`invalid payload answered ${code}, not invalid_payload\n    ${show(e)}`);
  }
}

describe('socket fuzz (P-4)', () => {
  it(
    'P-4 every client event answers random payloads with a protocol ack, never server_error, never a disconnect',
    { timeout: 180_000 },
    async () => {
      const emissions: Emission[] = [];
      eventNames.forEach((event, index) => {
        const arb = fc.record({
          event: fc.constant<string>(event),
          payload: payloadArb(event),
          mode: fc.oneof(
            { weight: 9, arbitrary: fc.constant<Mode>('ack') },
            { weight: 1, arbitrary: fc.constant<Mode>('noAck') },
          ),
          client: fc.nat(CLIENTS - 1),
        });
        emissions.push(...fc.sample(arb, { seed: seed + index, numRuns: RUNS_PER_EVENT }));
      });
      const unknown = fc.record({
        event: unknownName,
        payload: fc.oneof(hostile, validFor(clientEvents[ClientEvent.chatSend].payload, pool)),
        mode: fc.oneof(
          { weight: 3, arbitrary: fc.constant<Mode>('ack') },
          { weight: 1, arbitrary: fc.constant<Mode>('noAck') },
        ),
        client: fc.nat(CLIENTS - 1),
      });
      emissions.push(...fc.sample(unknown, { seed: seed + 100, numRuns: Math.round(RUNS_PER_EVENT / 2) }));

      const failures: string[] = [];
      const byClient = clients.map((_, i) => emissions.filter((e) => e.client === i));
      let acked = 0;
      const started = performance.now();
      await Promise.all(
        byClient.map((list, i) =>
          runPool(list, IN_FLIGHT_PER_CLIENT, async (e) => {
            const c = clients[i];
            if (!c) return;
            if (e.mode === 'noAck') {
              loose(c).emit(e.event, e.payload);
              return;
            }
            try {
              const ack = await loose(c).timeout(ACK_TIMEOUT_MS).emitWithAck(e.event, e.payload);
              acked++;
              checkAck(e, ack, failures);
            } catch (error) {
              failures.push(`no ack within ${ACK_TIMEOUT_MS} ms (${String(error)})\n    ${show(e)}`);
            }
          }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      // Let replies started by valid sends finish before looking at the event logs.
      await new Promise((r) => setTimeout(r, 500));

      const serverErrors = clients.flatMap((c) =>
        c.events.filter(
          (x) => x.event === ServerEvent.chatError && x.payload.code === ErrorCode.server_error,
        ),
      );
      const counts = Object.fromEntries(
        [...eventNames, 'unknown'].map((name) => [
          name,
          emissions.filter((e) =>
            name === 'unknown' ? !eventNames.includes(e.event as ClientEventName) : e.event === name,
          ).length,
        ]),
      );
      console.info(
        `socket fuzz: ${emissions.length} emits (${acked} acked, ${emissions.filter((e) => e.mode === 'noAck').length} without ack) over ${CLIENTS} clients in ${seconds.toFixed(1)} s (seed ${seed})\n  per event ${JSON.stringify(counts)}\n  acks ${JSON.stringify(Object.fromEntries([...tally].sort()))}\n  server events received: ${clients.reduce((n, c) => n + c.events.length, 0)}`,
      );
      expect(failures.slice(0, 15), `${failures.length} failures (FUZZ_SEED=${seed})`).toEqual([]);
      expect(unexpectedDisconnects).toEqual([]);
      expect(clients.flatMap((c) => c.problems)).toEqual([]);
      expect(serverErrors.map((e) => e.payload)).toEqual([]);
    },
  );

  it(
    'P-4 an event with extra arguments after the payload is still answered',
    { timeout: 60_000 },
    async () => {
      const c = clients[0];
      if (!c) throw new Error('no client');
      const samples = fc.sample(
        fc.record({
          event: fc.oneof(fc.constantFrom<string>(...eventNames), unknownName),
          payload: fc.oneof(hostile, validFor(clientEvents[ClientEvent.chatCancel].payload, pool)),
          extra: fc.array(fc.oneof(hostile, fc.constant(undefined)), { minLength: 1, maxLength: 3 }),
        }),
        { seed: seed + 200, numRuns: 60 },
      );
      const failures: string[] = [];
      await Promise.all(
        samples.map(async ({ event, payload, extra }) => {
          const e: Emission = { event, payload, mode: 'ack', client: 0 };
          try {
            const ack = await loose(c)
              .timeout(5_000)
              .emitWithAck(event, payload, ...extra);
            checkAck(e, ack, failures);
          } catch (error) {
            failures.push(`no ack (${String(error)})\n    ${show(e)} + ${extra.length} extra argument(s)`);
          }
        }),
      );
      console.info(
        `socket fuzz: ${samples.length} emits with extra arguments, ${failures.length} unanswered or wrong`,
      );
      expect(failures.slice(0, 10), `${failures.length} failures (FUZZ_SEED=${seed})`).toEqual([]);
      expect(unexpectedDisconnects).toEqual([]);
    },
  );

  it('stays healthy and still chats, with no unhandled rejection', async () => {
    const res = await fetch(`${server.url}${routes.health.health.path}`);
    expect(res.status).toBe(200);
    expect(HealthSchema.parse(await res.json()).status).toBe('online');
    const fresh = connect(user.token);
    await fresh.connected();
    const ack = await fresh.request(ClientEvent.chatSend, {
      clientMessageId: 'after-fuzz-1',
      message: 'Sigues ahí?',
    });
    if (!ack.ok) throw new Error(`send after fuzz failed: ${ack.error.code}`);
    await fresh.waitForReplyEnd(ack.data.replyId);
    expect(fresh.replyEvents(ack.data.replyId).at(-1)?.event).toBe(ServerEvent.chatReply);
    expect(unexpectedDisconnects).toEqual([]);
    expect(unhandled.map(String)).toEqual([]);
  });
});
