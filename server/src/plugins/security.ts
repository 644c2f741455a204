import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
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
  await app.register(cors, {
    origin: (origin, callback) => callback(null, !origin || opts.corsOrigins.includes(origin)),
    credentials: true,
  });
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
