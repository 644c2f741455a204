/**
 * Chat pipeline benchmark: `npm run bench` (builds first) or `tsx tests/bench/chat-bench.ts`.
 *
 * Measures Alma's chat:send → chat:delta → chat:reply pipeline at 1, 50 and 200 concurrent sockets,
 * and, in the same run and process, a bare socket.io echo server that acks at once and emits one
 * delta and one reply. The figures that matter are the ratios alma/echo: absolute numbers depend on
 * the machine. No thresholds — this prints and writes `tests/bench/results/latest.json`.
 *
 * Replies are not paced (REPLY_TOKEN_DELAY_MS=0): this measures the pipeline (validation, SQLite
 * writes with synchronous=FULL, analysis, reply engine, fan-out), not the typing effect. Clients and
 * servers share one process, for Alma and the echo baseline alike.
 *
 * Environment: BENCH_SECONDS (per level, default 6), BENCH_LEVELS (default "1,50,200").
 */
import { ClientEvent, ServerEvent, type AuthSession } from '@alma/protocol';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { cpus, platform, release, totalmem } from 'node:os';
import type { Socket } from 'socket.io-client';
import { registerUser } from '../fixtures/api.ts';
import { startTestServer } from '../fixtures/server.ts';
import { connect } from './support/reply-client.ts';

const SECONDS = Number(process.env.BENCH_SECONDS) || 6;
const LEVELS = (process.env.BENCH_LEVELS ?? '1,50,200')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const SOCKETS_PER_USER = 10;
const ACK_TIMEOUT_MS = 15_000;
const REPLY_TIMEOUT_MS = 30_000;
const MESSAGES = [
  'Hola, ¿cómo estás hoy?',
  'Me siento un poco cansada después del trabajo',
  'Hello! What do you like to do on weekends?',
  'Cuéntame algo bonito, por favor',
  'I had a great day, I finally finished my project!',
];

// ── the echo baseline ──────────────────────────────────────────────────────────────────────────

/** The few socket.io server calls the baseline needs (socket.io is a dependency of @alma/server). */
interface EchoSocket {
  on: (
    event: string,
    listener: (payload: { message?: string }, ack?: (result: unknown) => void) => void,
  ) => void;
  emit: (event: string, payload: unknown) => void;
}
interface EchoIo {
  on: (event: 'connection', listener: (socket: EchoSocket) => void) => void;
  close: (callback?: () => void) => void;
}
const requireFromServer = createRequire(import.meta.resolve('@alma/server'));
const { Server } = requireFromServer('socket.io') as {
  Server: new (http: HttpServer, options: object) => EchoIo;
};

/**
 * The same event names and shapes the client loop expects from Alma, with no work in between:
 * ack at once, then one delta and the reply.
 */
async function startEchoServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer();
  const ioServer = new Server(http, { serveClient: false });
  let next = 0;
  ioServer.on('connection', (socket) => {
    socket.on(ClientEvent.chatSend, (payload, ack) => {
      const replyId = `echo-${next++}`;
      const sessionId = 'echo-session';
      ack?.({ ok: true, data: { replyId, sessionId, duplicate: false } });
      socket.emit(ServerEvent.chatDelta, { replyId, sessionId, seq: 0, text: payload.message ?? '' });
      socket.emit(ServerEvent.chatReply, { replyId, sessionId, seq: 1, clientMessageId: null });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => ioServer.close(() => resolve())),
  };
}

// ── the client loop ────────────────────────────────────────────────────────────────────────────

interface Stats {
  firstDeltaMs: number[];
  replyMs: number[];
  completed: number;
  errors: Map<string, number>;
  sent: number;
}

const newStats = (): Stats => ({ firstDeltaMs: [], replyMs: [], completed: 0, errors: new Map(), sent: 0 });
const countError = (stats: Stats, code: string) => stats.errors.set(code, (stats.errors.get(code) ?? 0) + 1);

interface Ack {
  ok: boolean;
  data?: { replyId: string; sessionId: string };
  error?: { code: string };
}

/**
 * One socket sends sequentially until the deadline: send, wait for chat:reply (or chat:error),
 * send the next. The reply id is taken in the ack callback itself, so a delta decoded in the same
 * frame batch as the ack is still matched.
 */
interface Pending {
  replyId?: string;
  t0: number;
  firstDelta?: number;
  finish: (outcome: string) => void;
}

async function chatLoop(socket: Socket, label: string, deadline: number, stats: Stats): Promise<void> {
  const state: { current?: Pending } = {};
  socket.on(ServerEvent.chatDelta, (p: { replyId: string }) => {
    const c = state.current;
    if (c && p.replyId === c.replyId && c.firstDelta === undefined) c.firstDelta = performance.now() - c.t0;
  });
  socket.on(ServerEvent.chatReply, (p: { replyId: string }) => {
    if (state.current && p.replyId === state.current.replyId) state.current.finish('ok');
  });
  socket.on(ServerEvent.chatError, (p: { replyId?: string; code: string }) => {
    if (state.current && p.replyId === state.current.replyId) state.current.finish(p.code);
  });
  let sessionId: string | undefined;
  for (let n = 0; performance.now() < deadline; n++) {
    const entry: Pending = { t0: performance.now(), finish: () => undefined };
    state.current = entry;
    stats.sent++;
    const outcome = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('reply_timeout'), REPLY_TIMEOUT_MS);
      entry.finish = (result) => {
        clearTimeout(timer);
        resolve(result);
      };
      const payload = {
        clientMessageId: `${label}-${n}`,
        message: MESSAGES[n % MESSAGES.length] ?? 'hola',
        ...(sessionId ? { sessionId } : {}),
      };
      socket.timeout(ACK_TIMEOUT_MS).emit(ClientEvent.chatSend, payload, (err: Error | null, ack: Ack) => {
        if (err) return entry.finish('ack_timeout');
        if (!ack.ok || !ack.data) return entry.finish(ack.error?.code ?? 'bad_ack');
        entry.replyId = ack.data.replyId;
        sessionId = ack.data.sessionId;
      });
    });
    if (outcome === 'ok') {
      const total = performance.now() - entry.t0;
      stats.replyMs.push(total);
      stats.firstDeltaMs.push(entry.firstDelta ?? total);
      stats.completed++;
    } else {
      countError(stats, outcome);
      if (outcome === 'ack_timeout' || outcome === 'reply_timeout') break;
    }
  }
  state.current = undefined;
}

interface LevelResult {
  sockets: number;
  sent: number;
  completed: number;
  errors: Record<string, number>;
  seconds: number;
  repliesPerSecond: number;
  firstDelta: { p50: number; p99: number };
  reply: { p50: number; p99: number };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function runLevel(
  url: string,
  tokens: readonly string[],
  sockets: number,
  seconds: number,
  label: string,
): Promise<LevelResult> {
  const connections = await Promise.all(
    Array.from({ length: sockets }, (_, i) =>
      connect(url, tokens[Math.floor(i / SOCKETS_PER_USER) % tokens.length] ?? ''),
    ),
  );
  const stats = newStats();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    connections.map((socket, i) => chatLoop(socket, `${label}-s${i}-${Date.now()}`, deadline, stats)),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const socket of connections) socket.disconnect();
  return {
    sockets,
    sent: stats.sent,
    completed: stats.completed,
    errors: Object.fromEntries(stats.errors),
    seconds: elapsed,
    repliesPerSecond: stats.completed / elapsed,
    firstDelta: { p50: percentile(stats.firstDeltaMs, 50), p99: percentile(stats.firstDeltaMs, 99) },
    reply: { p50: percentile(stats.replyMs, 50), p99: percentile(stats.replyMs, 99) },
  };
}

// ── main ───────────────────────────────────────────────────────────────────────────────────────

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const ratio = (a: number, b: number) =>
  b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : Number.NaN;

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const maxSockets = Math.max(...LEVELS);
  // Bench users send far more than a month's free messages; the limit is not what is measured.
  const alma = await startTestServer({
    REPLY_TOKEN_DELAY_MS: '0',
    SOCKET_EVENT_RATE_LIMIT: '100000',
    FREE_MESSAGES_PER_MONTH: '10000000',
  });
  const echo = await startEchoServer();
  try {
    const users: AuthSession[] = [];
    for (let i = 0; i < Math.ceil(maxSockets / SOCKETS_PER_USER); i++)
      users.push(await registerUser(alma.url, { name: `Bench ${i}` }));
    const tokens = users.map((u) => u.token);
    console.info(
      `bench: ${users.length} users, levels ${LEVELS.join('/')} sockets, ${SECONDS} s per level and server`,
    );

    // Warm up both (JIT, SQLite pages, socket.io paths) before measuring.
    await runLevel(alma.url, tokens, 4, 1, 'warm');
    await runLevel(echo.url, ['echo'], 4, 1, 'warm');

    const levels: { sockets: number; alma: LevelResult; echo: LevelResult }[] = [];
    for (const sockets of LEVELS) {
      const a = await runLevel(alma.url, tokens, sockets, SECONDS, `alma${sockets}`);
      const e = await runLevel(echo.url, ['echo'], sockets, SECONDS, `echo${sockets}`);
      levels.push({ sockets, alma: a, echo: e });
      console.info(`  ${sockets} sockets: alma ${a.completed} replies, echo ${e.completed}`);
    }

    const header = [
      'sockets',
      'server',
      'sent',
      'replies',
      'errors',
      'first-delta p50',
      'first-delta p99',
      'reply p50',
      'reply p99',
      'replies/s',
    ];
    const rows: string[][] = [];
    for (const { sockets, alma: a, echo: e } of levels) {
      for (const [name, r] of [
        ['alma', a],
        ['echo', e],
      ] as const) {
        const errors = Object.values(r.errors).reduce((s, n) => s + n, 0);
        rows.push([
          String(sockets),
          name,
          String(r.sent),
          String(r.completed),
          String(errors),
          `${fmt(r.firstDelta.p50, 2)} ms`,
          `${fmt(r.firstDelta.p99, 2)} ms`,
          `${fmt(r.reply.p50, 2)} ms`,
          `${fmt(r.reply.p99, 2)} ms`,
          fmt(r.repliesPerSecond),
        ]);
      }
      rows.push([
        String(sockets),
        'alma/echo',
        '',
        '',
        '',
        `×${fmt(ratio(a.firstDelta.p50, e.firstDelta.p50))}`,
        `×${fmt(ratio(a.firstDelta.p99, e.firstDelta.p99))}`,
        `×${fmt(ratio(a.reply.p50, e.reply.p50))}`,
        `×${fmt(ratio(a.reply.p99, e.reply.p99))}`,
        `×${fmt(ratio(a.repliesPerSecond, e.repliesPerSecond), 3)}`,
      ]);
    }
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
    console.info(
      `\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`,
    );

    const failed = levels.flatMap(({ sockets, alma: a, echo: e }) => [
      ...Object.entries(a.errors).map(([code, n]) => `alma @${sockets}: ${n}× ${code}`),
      ...Object.entries(e.errors).map(([code, n]) => `echo @${sockets}: ${n}× ${code}`),
    ]);
    console.info(failed.length > 0 ? `failed replies:\n  ${failed.join('\n  ')}` : 'failed replies: none');

    const results = {
      date: new Date().toISOString(),
      node: process.version,
      platform: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(totalmem() / 2 ** 30),
      config: {
        secondsPerLevel: SECONDS,
        socketsPerUser: SOCKETS_PER_USER,
        replyTokenDelayMs: 0,
        users: users.length,
      },
      levels: levels.map(({ sockets, alma: a, echo: e }) => ({
        sockets,
        alma: a,
        echo: e,
        ratio: {
          firstDeltaP50: ratio(a.firstDelta.p50, e.firstDelta.p50),
          firstDeltaP99: ratio(a.firstDelta.p99, e.firstDelta.p99),
          replyP50: ratio(a.reply.p50, e.reply.p50),
          replyP99: ratio(a.reply.p99, e.reply.p99),
          repliesPerSecond: ratio(a.repliesPerSecond, e.repliesPerSecond),
        },
      })),
      totalSeconds: (performance.now() - benchStarted) / 1000,
    };
    const dir = new URL('./results/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL('latest.json', dir), `${JSON.stringify(results, null, 2)}\n`);
    console.info(`wrote tests/bench/results/latest.json (${results.totalSeconds.toFixed(0)} s in all)`);
  } finally {
    await echo.close();
    await alma.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
