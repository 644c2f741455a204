import { APP_VERSION, PROTOCOL_VERSION, routes, type Capability, type Health } from '@alma/protocol';
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
  /** This instance and the avatar jobs running here (SPEC.md M-7). */
  avatarJobs?: () => NonNullable<Health['avatarJobs']>;
}

/** `/health` (SPEC.md H-1, H-3): runs the monitor's checks now, so the answer is never stale. */
export function createHealthCheck(deps: HealthDeps): () => Promise<Health> {
  return async () => {
    const { status, checks } = await deps.monitor.check();
    return {
      status,
      version: APP_VERSION,
      protocolVersion: PROTOCOL_VERSION,
      uptimeS: Math.round((Date.now() - deps.startedAt) / 1000),
      database: { kind: deps.storage.kind, ok: checks.find((c) => c.name === 'database')?.ok ?? false },
      engines: deps.engines,
      checks,
      capabilities: deps.capabilities,
      avatarJobs: deps.avatarJobs?.(),
    };
  };
}

export function registerHealthRoutes(app: FastifyInstance, check: () => Promise<Health>): void {
  registerRoute(app, routes.health.health, async (_input, { reply }) => {
    void reply.header('cache-control', 'no-store');
    return check();
  });
}
