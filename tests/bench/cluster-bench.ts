/**
 * Cluster benchmark (issue 15): `npm run bench` (builds first) or `tsx tests/bench/cluster-bench.ts`
 * after `pnpm --filter @alma/server build`.
 *
 * 200 sockets, each sending one message after another for BENCH_SECONDS and tracing every
 * streamed reply, against — in one run — one process without Redis (the baseline), then 1, 2 and
 * 3 real Alma processes (server/dist/server.js, as `npm start` runs them) sharing one database
 * file and one redis-server, the sockets spread round-robin over the instances. Per
 * configuration: replies/s, p50/p99 time to the first delta, and gaps — seqs missing between two
 * a client received (SPEC.md C-4), which must be 0. Ratios are against the baseline measured in
 * the same run; absolute figures depend on the machine (every process, Redis and the load
 * generator share its cores). No thresholds: it prints and writes tests/bench/results/cluster.json.
 *
 * Replies are not paced (REPLY_TOKEN_DELAY_MS=0) and not spoken (SPEECH_ENGINE=none): this
 * measures the pipeline and the fan-out through Redis, not the typing effect or speech.
 *
 * Environment: BENCH_SECONDS (per configuration, default 8), BENCH_SOCKETS (default 200);
 * BENCH_QUICK=1: 40 sockets for 2 s, to check the benchmark works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import {
  ensureServerBuilt,
  freePort,
  spawnAlma,
  stopProcess,
  waitHealthy,
  type AlmaProcess,
} from '../fixtures/processes.ts';
import { connect, traceReply, type ReplyTrace } from './support/reply-client.ts';
import { QUICK, fmt, machine, percentile, printTable, ratio, writeResult } from './support/report.ts';

const SECONDS = QUICK ? 2 : Number(process.env.BENCH_SECONDS) || 8;
const SOCKETS = QUICK ? 40 : Number(process.env.BENCH_SOCKETS) || 200;
const SOCKETS_PER_USER = 10;
const REPLY_TIMEOUT_MS = 60_000;
const MESSAGES = [
  'Hola, ¿cómo estás hoy?',
  'Me siento un poco cansada después del trabajo',
  'Hello! What do you like to do on weekends?',
  'Cuéntame algo bonito, por favor',
  'I had a great day, I finally finished my project!',
];

/** What every instance runs with: the limits are not what is measured. */
const ENV = {
  REPLY_TOKEN_DELAY_MS: '0',
  SPEECH_ENGINE: 'none',
  SOCKET_EVENT_RATE_LIMIT: '100000',
  AUTH_RATE_LIMIT_MAX: '100000',
  FREE_MESSAGES_PER_MONTH: '10000000',
};

interface Run {
  name: string;
  instances: number;
  redis: boolean;
  sent: number;
  completed: number;
  failed: Record<string, number>;
  gaps: number;
  reorders: number;
  seconds: number;
  repliesPerSecond: number;
  firstDelta: { p50: number; p99: number };
}

/** One process without REDIS_URL, on its own database: today's single-process deployment. */
async function startSingle(): Promise<{ urls: string[]; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'alma-bench-single-'));
  const output: string[] = [];
  const alma: AlmaProcess = spawnAlma(
    {
      ...ENV,
      DATA_DIR: dataDir,
      JWT_SECRET: 'cluster-bench-secret-of-at-least-32-characters',
      CLIENT_DIST: join(dataDir, 'no-client'),
    },
    await freePort(),
    'single',
    output,
  );
  await waitHealthy(alma, output);
  return {
    urls: [alma.url],
    stop: async () => {
      await stopProcess(alma.child, 'SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startRedisCluster(count: number): Promise<{ urls: string[]; stop: () => Promise<void> }> {
  const cluster: TestCluster = await startCluster(count, ENV);
  return { urls: cluster.instances.map((i) => i.url), stop: cluster.stop };
}

/** One socket's replies, one after another, until the deadline. */
async function loop(socket: Socket, label: string, deadline: number): Promise<ReplyTrace[]> {
  const traces: ReplyTrace[] = [];
  for (let n = 0; performance.now() < deadline; n++) {
    const trace = await traceReply(
      socket,
      MESSAGES[n % MESSAGES.length] ?? 'hola',
      `${label}-${n}`,
      REPLY_TIMEOUT_MS,
    );
    traces.push(trace);
    if (trace.outcome === 'timeout' || trace.outcome === 'disconnected') break;
  }
  return traces;
}

async function measure(name: string, redis: boolean, urls: string[]): Promise<Run> {
  const users = Math.ceil(SOCKETS / SOCKETS_PER_USER);
  const tokens: string[] = [];
  for (let u = 0; u < users; u++) {
    const url = urls[u % urls.length] ?? '';
    tokens.push((await registerUser(url, { name: `Bench ${u}` })).token);
  }
  const sockets = await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) =>
      connect(urls[i % urls.length] ?? '', tokens[Math.floor(i / SOCKETS_PER_USER)] ?? ''),
    ),
  );
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const traces = (await Promise.all(sockets.map((socket, i) => loop(socket, `s${i}`, deadline)))).flat();
  const seconds = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.disconnect();
  const done = traces.filter((t) => t.outcome === 'reply');
  const failed: Record<string, number> = {};
  for (const t of traces)
    if (t.outcome !== 'reply') failed[t.outcome ?? '?'] = (failed[t.outcome ?? '?'] ?? 0) + 1;
  const firstDelta = done.map((t) => (t.deltaAt[0] ?? t.endAt ?? t.sentAt) - t.sentAt);
  return {
    name,
    instances: urls.length,
    redis,
    sent: traces.length,
    completed: done.length,
    failed,
    gaps: traces.reduce((sum, t) => sum + t.gaps, 0),
    reorders: traces.reduce((sum, t) => sum + t.reorders, 0),
    seconds,
    repliesPerSecond: done.length / seconds,
    firstDelta: { p50: percentile(firstDelta, 50), p99: percentile(firstDelta, 99) },
  };
}

async function main(): Promise<void> {
  ensureServerBuilt();
  const configurations: { name: string; redis: boolean; start: () => ReturnType<typeof startSingle> }[] = [
    { name: 'single, no Redis', redis: false, start: startSingle },
    { name: '1 instance + Redis', redis: true, start: () => startRedisCluster(1) },
    { name: '2 instances + Redis', redis: true, start: () => startRedisCluster(2) },
    { name: '3 instances + Redis', redis: true, start: () => startRedisCluster(3) },
  ];
  const runs: Run[] = [];
  for (const configuration of configurations) {
    const deployment = await configuration.start();
    try {
      runs.push(await measure(configuration.name, configuration.redis, deployment.urls));
    } finally {
      await deployment.stop();
    }
  }
  const [baseline] = runs;
  if (!baseline) throw new Error('no run');
  console.info(`\n${SOCKETS} sockets sending one message after another for ${SECONDS} s per configuration`);
  printTable(
    [
      'configuration',
      'replies',
      'replies/s',
      'vs single',
      'first delta p50 ms',
      'p99 ms',
      'p99 vs single',
      'gaps',
      'failed',
    ],
    runs.map((r) => [
      r.name,
      String(r.completed),
      fmt(r.repliesPerSecond),
      `${fmt(ratio(r.repliesPerSecond, baseline.repliesPerSecond), 2)}×`,
      fmt(r.firstDelta.p50),
      fmt(r.firstDelta.p99),
      `${fmt(ratio(r.firstDelta.p99, baseline.firstDelta.p99), 2)}×`,
      String(r.gaps),
      Object.entries(r.failed)
        .map(([code, n]) => `${code}: ${n}`)
        .join(', ') || '0',
    ]),
  );
  const gaps = runs.reduce((sum, r) => sum + r.gaps, 0);
  console.info(gaps === 0 ? 'gaps: 0 in every configuration' : `GAPS: ${gaps} seqs missing (must be 0)`);
  writeResult('cluster', { machine: machine(), sockets: SOCKETS, seconds: SECONDS, runs });
  if (gaps > 0) process.exitCode = 1;
}

await main();
