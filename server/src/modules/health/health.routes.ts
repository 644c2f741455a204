import { APP_VERSION, PROTOCOL_VERSION, routes, type Health } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import type { Storage } from '../../storage/types.ts';

export interface HealthDeps {
  storage: Storage;
  engines: Health['engines'];
  startedAt: number;
}

/** A database that does not answer within this time counts as down (the client waits 3 s). */
const PING_TIMEOUT_MS = 1500;

export function createHealthCheck(deps: HealthDeps): () => Promise<Health> {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>(
      (resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)),
    );
    const ok = await Promise.race([deps.storage.ping().catch(() => false), timeout]);
    clearTimeout(timer);
    return {
      status: ok ? 'online' : 'degraded',
      version: APP_VERSION,
      protocolVersion: PROTOCOL_VERSION,
      uptimeS: Math.round((Date.now() - deps.startedAt) / 1000),
      database: { kind: deps.storage.kind, ok },
      engines: deps.engines,
    };
  };
}

export function registerHealthRoutes(app: FastifyInstance, check: () => Promise<Health>): void {
  registerRoute(app, routes.health.health, async (_input, { reply }) => {
    void reply.header('cache-control', 'no-store');
    return check();
  });
}
