import {
  APP_VERSION,
  PROTOCOL_VERSION,
  routes,
  type Capability,
  type Health,
  type JobQueueState,
} from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import type { Storage } from '../../storage/types.ts';
import type { HealthMonitor } from './health-monitor.ts';

export interface HealthDeps {
  storage: Pick<Storage, 'kind'>;
  monitor: HealthMonitor;
  engines: Health['engines'];
  capabilities: Capability[];
  startedAt: number;
  /** The job queues as this instance sees them (SPEC.md M-7, M-9). */
  queues?: { avatarJobs: () => Promise<JobQueueState>; voiceJobs: () => Promise<JobQueueState> };
  /** How long an answer is given again (HEALTH_MAX_AGE_MS, SPEC.md H-1); 0: every call runs the checks. */
  maxAgeMs?: number;
  /** Milliseconds now (tests move it). */
  now?: () => number;
}

/** A queue's state, or nothing when it cannot be read now (its store is away: `checks` says so). */
const stateOf = (read: (() => Promise<JobQueueState>) | undefined) =>
  read ? read().catch(() => undefined) : undefined;

/**
 * `/health` (SPEC.md H-1, H-3): runs the monitor's checks and reads the queues, and gives that
 * answer again for `maxAgeMs` from when its round started — a storm of probes asks the database
 * once a second, not once per probe. Calls while a round runs share it; a round that throws is
 * not kept. Answers are frozen, so the route checks and serialises each one once (`registerRoute`).
 */
export function createHealthCheck(deps: HealthDeps): () => Promise<Health> {
  const maxAgeMs = deps.maxAgeMs ?? 0;
  const now = deps.now ?? (() => Date.now());
  let last: { startedAt: number; answer: Promise<Health> } | undefined;
  const forget = (answer: Promise<Health>) => {
    if (last?.answer === answer) last = undefined;
  };
  return () => {
    const startedAt = now();
    if (last && startedAt - last.startedAt < maxAgeMs) return last.answer;
    const answer = runHealthCheck(deps);
    last = { startedAt, answer };
    answer.catch(() => forget(answer));
    return answer;
  };
}

async function runHealthCheck(deps: HealthDeps): Promise<Health> {
  const [{ status, checks }, avatarJobs, voiceJobs] = await Promise.all([
    deps.monitor.check(),
    stateOf(deps.queues?.avatarJobs),
    stateOf(deps.queues?.voiceJobs),
  ]);
  return Object.freeze({
    status,
    version: APP_VERSION,
    protocolVersion: PROTOCOL_VERSION,
    uptimeS: Math.round((Date.now() - deps.startedAt) / 1000),
    database: { kind: deps.storage.kind, ok: checks.find((c) => c.name === 'database')?.ok ?? false },
    engines: deps.engines,
    checks,
    capabilities: deps.capabilities,
    avatarJobs,
    voiceJobs,
  });
}

export function registerHealthRoutes(app: FastifyInstance, check: () => Promise<Health>): void {
  registerRoute(app, routes.health.health, async (_input, { reply }) => {
    void reply.header('cache-control', 'no-store');
    return check();
  });
}
