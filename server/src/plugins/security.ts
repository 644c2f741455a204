import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.ts';
import { registerSecurityHeaders } from './security-headers.ts';

/** True for an allowed cross-origin caller, or the server's own origin (same-origin requests). */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (!origin) return true; // not a browser cross-origin request (curl, server-to-server, tests)
  if (allowed.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

export async function registerSecurity(
  app: FastifyInstance,
  opts: {
    corsOrigins: string[];
    /** Counters shared by every instance (SPEC.md M-2); null: this process's memory. */
    redis: Redis | null;
    /** The configured public address (APP_URL): the policy's origins and the accepted Host. */
    appUrl: string;
    /** More Host names answered (ALLOWED_HOSTS, SPEC.md W-5). */
    allowedHosts: readonly string[];
  },
): Promise<void> {
  registerSecurityHeaders(app, { appUrl: opts.appUrl, allowedHosts: opts.allowedHosts });
  registerCors(app, opts.corsOrigins);
  // Only routes that opt in (auth) are limited; see `authRateLimit`.
  await app.register(rateLimit, {
    global: false,
    // With Redis the window is counted once for all instances; if Redis is away, requests pass
    // (and /health says `redis` is down) rather than every sign-in failing.
    ...(opts.redis ? { redis: opts.redis, nameSpace: 'alma:rate-limit:', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new AppError('rate_limited', { retryAfterMs: context.ttl }), { statusCode: 429 }),
  });
}

export const authRateLimit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

/**
 * CORS for the configured origins (CORS_ORIGINS), answered as @fastify/cors answered them with
 * `credentials`, in one plain hook: the plugin copied its options and made two closures per
 * request (issue 14). An allowed origin is named back with credentials; another gets no CORS
 * header; every answer varies by Origin. A preflight from an allowed origin is 204 with the
 * methods (`GET,HEAD,POST`) and the headers it asked for; from another origin, 404; without its
 * origin or `Access-Control-Request-Method`, 400.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins);
  const preflights = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    void reply.header('vary', 'Origin');
    if (origin !== undefined && !allowed.has(origin)) {
      done();
      return;
    }
    if (origin !== undefined) void reply.header('access-control-allow-origin', origin);
    void reply.header('access-control-allow-credentials', 'true');
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    if (origin === undefined || request.headers['access-control-request-method'] === undefined) {
      void reply.code(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    preflights.add(request);
    void reply.header('access-control-allow-methods', 'GET,HEAD,POST');
    void reply.header('vary', 'Origin, Access-Control-Request-Headers');
    const asked = request.headers['access-control-request-headers'];
    if (asked !== undefined) void reply.header('access-control-allow-headers', asked);
    void reply.code(204).header('content-length', '0').send();
  });
  // Preflights are answered by the hook; this route makes OPTIONS requests reach it at all.
  app.options('*', (request, reply) => {
    if (preflights.has(request)) void reply.send();
    else void reply.callNotFound();
  });
}
