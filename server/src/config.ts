import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Configuration, parsed once from the environment. Every variable is listed in the README's
 * configuration table; a bad value stops start-up with one clear message naming it.
 */
const intFrom = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const EnvSchema = z.object({
  PORT: intFrom(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  MONGODB_DB: z.string().min(1).default('alma'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_S: intFrom(30, 24 * 3600).default(900),
  REFRESH_TOKEN_TTL_DAYS: intFrom(1, 365).default(30),
  CORS_ORIGINS: z.string().default('http://localhost:3000,http://localhost:5173'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REPLY_ENGINE: z.enum(['builtin']).default('builtin'),
  REPLY_TOKEN_DELAY_MS: intFrom(0, 2000).default(35),
  AUTH_RATE_LIMIT_MAX: intFrom(1, 100_000).default(20),
  SOCKET_EVENT_RATE_LIMIT: intFrom(1, 100_000).default(30),
  SOCKET_RECORD_DIR: z.string().min(1).optional(),
  SHUTDOWN_GRACE_MS: intFrom(0, 120_000).default(5000),
  CLIENT_DIST: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  mongodbUri: string | undefined;
  mongodbDb: string;
  jwtSecret: string;
  accessTokenTtlS: number;
  refreshTokenTtlDays: number;
  corsOrigins: string[];
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  replyEngine: 'builtin';
  replyTokenDelayMs: number;
  authRateLimitMax: number;
  socketEventRateLimit: number;
  socketRecordDir: string | undefined;
  shutdownGraceMs: number;
  clientDist: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses env; throws ConfigError listing every bad variable. Creates DATA_DIR. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" (docker-compose passes `VAR=` for absent values).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}=${JSON.stringify(cleaned[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    mongodbUri: e.MONGODB_URI,
    mongodbDb: e.MONGODB_DB,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    replyEngine: e.REPLY_ENGINE,
    replyTokenDelayMs: e.REPLY_TOKEN_DELAY_MS,
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX,
    socketEventRateLimit: e.SOCKET_EVENT_RATE_LIMIT,
    socketRecordDir: e.SOCKET_RECORD_DIR ? resolve(e.SOCKET_RECORD_DIR) : undefined,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    clientDist: resolve(e.CLIENT_DIST ?? defaultClientDist()),
  };
}

/** The secret survives restarts so that issued tokens stay valid; it never leaves DATA_DIR. */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** client/dist beside server/, whether we run from src (tsx) or dist (bundled). */
function defaultClientDist(): string {
  return new URL('../../client/dist', import.meta.url).pathname;
}
