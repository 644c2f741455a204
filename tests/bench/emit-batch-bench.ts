/**
 * One write per moment (issue 14; part of `npm run bench`; alone: `tsx tests/bench/emit-batch-bench.ts`).
 *
 * When a user sends, the server writes five events to that user's socket in one moment: the
 * session's `session:updated`, `usage:updated`, the ack, the reply's `chat:typing` and its first
 * `chat:delta`, the four after the first queued by code that awaits no I/O in between. engine.io
 * flushes a connection's buffer at every packet, so the first left in a write of its own and the
 * rest in a second one; Alma's realtime server (server/src/realtime/cork-batches.ts) flushes once
 * at the end of the tick instead, so the five leave in one `writev`.
 *
 * Measured here alone, on a bare socket.io server with Alma's batching and BENCH_SOCKETS (200)
 * clients in a process of their own (support/emit-batch-clients.ts): each round every socket gets
 * its moment at once, as at 200 sends at once; rounds alternate between Alma's flush and
 * engine.io's own (each connection's `flush` switched between the two), so both are measured in
 * the same minute on the same sockets. Figure: the server's main thread CPU per moment (read from
 * /proc, µs), the median of BENCH_ROUNDS (40) rounds each after four to warm up. No thresholds.
 */
import { ServerEvent } from '@alma/protocol';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { corkTransportBatches } from '../../server/src/realtime/cork-batches.ts';
import { fmt, machine, median, QUICK, ratio, writeResult } from './support/report.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS) || 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || (QUICK ? 10 : 40);
const WARM_UP_ROUNDS = 4;
const MODES = ['alma', 'engine.io'] as const;
type Mode = (typeof MODES)[number];

interface Connection {
  flush(): void;
}

const http = createServer();
const io = new Server(http, { serveClient: false });
corkTransportBatches(io);
// Each connection's flush both ways: Alma's (installed by corkTransportBatches, which listens
// first) and engine.io's own, from its prototype.
const flushes: { conn: Connection; alma: () => void; engine: () => void }[] = [];
io.engine.on('connection', (conn: Connection) => {
  const own = (Object.getPrototypeOf(conn) as Connection).flush;
  flushes.push({ conn, alma: conn.flush, engine: () => own.call(conn) });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

const clients = fork(
  new URL('./support/emit-batch-clients.ts', import.meta.url).pathname,
  [url, String(SOCKETS)],
  {
    execArgv: ['--import', 'tsx'],
  },
);
let received = 0;
await new Promise<void>((resolve, reject) => {
  clients.once('exit', (code) => reject(new Error(`the clients exited with ${code}`)));
  clients.on('message', (message) => (message === 'ready' ? resolve() : (received = Number(message))));
});
const sockets = [...io.sockets.sockets.values()];
if (sockets.length !== SOCKETS) throw new Error(`${sockets.length} of ${SOCKETS} clients connected`);

/** The main thread's time on a core so far, µs (/proc: this thread's schedstat). */
const mainThreadUs = () =>
  Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = {
  replyId: '0190a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
  sessionId: '0190a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1c',
};

/** A send's moment on one socket: Alma's five events, shaped and sized as Alma's. */
async function moment(socket: Socket, round: number): Promise<void> {
  socket.emit(ServerEvent.sessionUpdated, {
    kind: 'created',
    session: {
      id: ids.sessionId,
      title: 'Nueva conversación',
      messageCount: 1,
      updatedAt: new Date().toISOString(),
    },
  });
  await Promise.resolve();
  socket.emit(ServerEvent.usageUpdated, {
    messagesThisPeriod: round,
    limit: 100,
    periodEnd: '2026-12-31T23:59:59.999Z',
  });
  await Promise.resolve();
  // The ack, sent here as an event of its size (an ack answers a client's emit).
  socket.emit(ServerEvent.chatMessage, {
    ok: true,
    data: { message: { id: ids.replyId, content: 'Hoy ha sido un día largo pero bonito' } },
  });
  await Promise.resolve();
  socket.emit(ServerEvent.chatTyping, { ...ids, seq: 0, typing: true });
  await Promise.resolve();
  socket.emit(ServerEvent.chatDelta, { ...ids, seq: 1, text: 'Qué ' });
}

const cpu: Record<Mode, number[]> = { alma: [], 'engine.io': [] };
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
  for (const mode of round % 2 ? MODES : [...MODES].reverse()) {
    for (const f of flushes) f.conn.flush = mode === 'alma' ? f.alma : f.engine;
    const before = mainThreadUs();
    await Promise.all(sockets.map((socket) => moment(socket, round)));
    // The writes' callbacks and the next flushes run after the moment: wait for them.
    await sleep(100);
    if (round >= WARM_UP_ROUNDS) cpu[mode].push(mainThreadUs() - before);
  }
}
await sleep(300);
const expected = (WARM_UP_ROUNDS + ROUNDS) * MODES.length * SOCKETS * 5;
clients.removeAllListeners('exit');
clients.kill();
await new Promise<void>((resolve) => void io.close(() => resolve()));

const alma = median(cpu.alma);
const engine = median(cpu['engine.io']);
console.info(
  `emit-batch: ${SOCKETS} sockets, a send's moment of five events on each at once, ${ROUNDS} rounds each way\n` +
    `  main thread CPU per moment of ${SOCKETS} sockets: Alma's flush once a tick ${fmt(alma / 1000, 2)} ms, ` +
    `engine.io's flush per packet ${fmt(engine / 1000, 2)} ms: ×${fmt(ratio(alma, engine), 2)}\n` +
    `  (${fmt(alma / SOCKETS, 1)} against ${fmt(engine / SOCKETS, 1)} µs a send); events read by the clients ${received} of ${expected}`,
);
writeResult('emit-batch-latest', {
  ...machine(),
  config: { sockets: SOCKETS, rounds: ROUNDS },
  mainThreadUsPerMoment: { alma, engineIo: engine, ratio: ratio(alma, engine) },
  eventsRead: { received, expected },
});
