import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.ts';

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

/**
 * The KTX2 (Basis) transcoder's worker script (client/public/decoders/basis-worker.js). Its
 * transcoder is an Emscripten/embind build that compiles its bindings with `new Function`; a
 * worker started from a URL runs under the policy sent with that script, so eval is allowed in
 * this one worker (no DOM, no network: the wasm is posted to it) and nowhere else. It runs the
 * worker body three.js builds as a blob: URL.
 */
export const BASIS_WORKER_PATH = '/decoders/basis-worker.js';
export const BASIS_WORKER_CSP =
  "default-src 'none'; script-src 'self' blob: 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'none'";

export async function registerSecurity(
  app: FastifyInstance,
  opts: {
    corsOrigins: string[];
    /** Counters shared by every instance (SPEC.md M-2); null: this process's memory. */
    redis: Redis | null;
  },
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        // blob: is how three.js's GLTFLoader reads a .glb's embedded images (fetch of a blob URL);
        // without it every textured model renders white. Decoder workers (KTX2, Draco) start
        // from blob: URLs and fetch their wasm from 'self'.
        connectSrc: ["'self'", 'blob:', 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: null,
      },
    },
    // Lets the 3D viewer load models and audio from the same origin without COEP friction.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.split('?', 1)[0] === BASIS_WORKER_PATH) {
      reply.header('content-security-policy', BASIS_WORKER_CSP);
    }
  });
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
