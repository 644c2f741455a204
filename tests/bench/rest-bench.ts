/**
 * REST benchmark (part of `npm run bench`; alone: `tsx tests/bench/rest-bench.ts`).
 *
 * Server CPU per request of `GET /health` and `GET /chat/sessions` (a user with SESSIONS
 * sessions), Alma against bare Fastify answering the same JSON, each server in its own process so
 * the CPU counted is the server's alone (`process.cpuUsage()` of the child, read before and after
 * each round). Alma runs as shipped: LOG_LEVEL info (its log goes nowhere here, but is written),
 * helmet, CORS, auth, schema checks. Rounds alternate between the two servers; the figure is the
 * median round, and the ratio the median of each pair of neighbouring rounds. Issue 14's goals: /health ≤ 1.5×, /chat/sessions ≤ 2× bare. No thresholds.
 *
 * Environment: BENCH_QUICK=1 (a small run), BENCH_REQUESTS per round, BENCH_ROUNDS,
 * BENCH_PROFILE=<dir> (both servers' main-thread CPU profiles over the last measured round; the
 * profiler's own cost then inflates the figures),
 * BENCH_LOG_LEVEL (Alma's LOG_LEVEL, default info).
 */
import { routes } from '@alma/protocol';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { httpLoad } from './support/http-load.ts';
import { fmt, machine, median, printTable, QUICK, ratio, writeResult } from './support/report.ts';
import { startServerProcess, type ServerProcess } from './support/server-process.ts';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS) || (QUICK ? 1500 : 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS) || (QUICK ? 1 : 5);
const CONCURRENCY = 8;
const SESSIONS = 20;
const GOALS: Record<string, number> = { '/health': 1.5, '/chat/sessions': 2 };

const ALMA_CHILD = new URL('./support/alma-child.ts', import.meta.url);
const BARE_CHILD = new URL('./support/bare-rest-child.ts', import.meta.url);

async function cpuPerRequest(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  count: number,
): Promise<number> {
  const before = await server.cpuUs();
  await httpLoad(`${server.url}${path}`, { count, concurrency: CONCURRENCY, headers });
  return ((await server.cpuUs()) - before) / count;
}

const alma = await startServerProcess(ALMA_CHILD, {
  nodeFlags: SERVER_NODE_FLAGS,
  label: 'alma-rest',
  env: {
    BENCH_ALMA_ENV: JSON.stringify({
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    }),
  },
});
let bare: ServerProcess | undefined;
try {
  const user = await registerUser(alma.url, { name: 'Bench' });
  const call = apiClient(alma.url, { token: user.token });
  for (let i = 0; i < SESSIONS; i++)
    await call(routes.chat.createSession, { body: { title: `Sesión ${i + 1}` } });
  const headers = { authorization: `Bearer ${user.token}`, 'accept-language': 'es' };
  const paths = ['/health', '/chat/sessions'];
  const bodies: Record<string, unknown> = {};
  for (const path of paths) bodies[path] = await (await fetch(`${alma.url}${path}`, { headers })).json();
  const base = await startServerProcess(BARE_CHILD, {
    label: 'bare-rest',
    env: { BENCH_BODIES: JSON.stringify(bodies) },
  });
  bare = base;

  console.info(
    `rest: ${ROUNDS} round(s) of ${REQUESTS} requests per path and server, ${CONCURRENCY} connections`,
  );
  const rows: { path: string; alma: number; bare: number; ratio: number; goal: number }[] = [];
  for (const path of paths) {
    // Warm-up: JIT, SQLite pages, connection set-up.
    await cpuPerRequest(alma, path, headers, Math.min(REQUESTS, 2000));
    await cpuPerRequest(base, path, headers, Math.min(REQUESTS, 2000));
    const a: number[] = [];
    const b: number[] = [];
    const name = path.replaceAll('/', '_').slice(1);
    for (let round = 0; round < ROUNDS; round++) {
      a.push(await alma.profile(name, () => cpuPerRequest(alma, path, headers, REQUESTS)));
      b.push(await base.profile(name, () => cpuPerRequest(base, path, headers, REQUESTS)));
    }
    // The ratio of each pair of neighbouring rounds, then the median: the machine's load moves
    // both sides of a pair alike.
    const pairRatio = median(a.map((x, i) => ratio(x, b[i] ?? Number.NaN)));
    rows.push({ path, alma: median(a), bare: median(b), ratio: pairRatio, goal: GOALS[path] ?? Number.NaN });
  }
  printTable(
    ['CPU per request', 'alma', 'bare fastify', 'alma/bare', 'goal'],
    rows.map((r) => [
      `GET ${r.path}`,
      `${fmt(r.alma)} µs`,
      `${fmt(r.bare)} µs`,
      `×${fmt(r.ratio, 2)}`,
      `≤ ×${r.goal}`,
    ]),
  );
  writeResult('rest-latest', {
    ...machine(),
    config: { requests: REQUESTS, rounds: ROUNDS, concurrency: CONCURRENCY, sessions: SESSIONS },
    cpuPerRequestUs: rows,
    bodies,
  });
} finally {
  await bare?.close();
  await alma.close();
}
