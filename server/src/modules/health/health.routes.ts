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
}

/** A queue's state, or nothing when it cannot be read now (its store is away: `checks` says so). */
const stateOf = (read: (() => Promise<JobQueueState>) | undefined) =>
  read ? read().catch(() => undefined) : undefined;

/** `/health` (SPEC.md H-1, H-3): runs the monitor's checks now, so the answer is never stale. */
export function createHealthCheck(deps: HealthDeps): () => Promise<Health> {
  return async () => {
    const [{ status, checks }, avatarJobs, voiceJobs] = await Promise.all([
      deps.monitor.check(),
      stateOf(deps.queues?.avatarJobs),
      stateOf(deps.queues?.voiceJobs),
    ]);
    return {
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
    };
  };
}

export function registerHealthRoutes(app: FastifyInstance, check: () => Promise<Health>): void {
  registerRoute(app, routes.health.health, async (_input, { reply }) => {
    void reply.header('cache-control', 'no-store');
    return check();
  });
}
