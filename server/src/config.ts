import { PLAN_TABLE } from '@alma/protocol';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Configuration, parsed once from the environment. Every variable is listed in the README's
 * configuration table; a bad value stops start-up with one clear message naming it.
 */
const intFrom = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

export const EnvSchema = z.object({
  PORT: intFrom(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  MONGODB_DB: z.string().min(1).default('alma'),
  // Several instances (ARCHITECTURE §5, issue 15): socket.io, limits and replies in flight shared
  // through this Redis. Unset: one process, everything in memory.
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^/]/, 'must start with redis:// or rediss://')
    .optional(),
  // With REDIS_URL: how long a dead instance's replies and upload slots outlive it (SPEC.md M-5, M-6).
  INSTANCE_LEASE_MS: intFrom(500, 120_000).default(10_000),
  NODE_ENV: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_S: intFrom(30, 24 * 3600).default(900),
  REFRESH_TOKEN_TTL_DAYS: intFrom(1, 365).default(30),
  REFRESH_REUSE_GRACE_S: intFrom(0, 60).default(10),
  CORS_ORIGINS: z.string().default('http://localhost:3000,http://localhost:5173').transform(list),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REPLY_ENGINE: z.enum(['builtin', 'openai', 'local']).default('builtin'),
  REPLY_TOKEN_DELAY_MS: intFrom(0, 2000).default(35),
  // REPLY_ENGINE=openai: any OpenAI-compatible chat completions endpoint.
  OPENAI_BASE_URL: httpUrl.default('https://api.openai.com/v1'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).optional(),
  OPENAI_TIMEOUT_MS: intFrom(100, 600_000).default(30_000),
  OPENAI_MAX_RETRIES: intFrom(0, 10).default(2),
  // REPLY_ENGINE=local: a GGUF model run by node-llama-cpp on the CPU.
  LLM_MODEL_PATH: z.string().min(1).optional(),
  LLM_THREADS: intFrom(1, 256).default(2),
  LLM_CONTEXT_SIZE: intFrom(256, 1_048_576).default(4096),
  LLM_MAX_TOKENS: intFrom(1, 32_768).default(512),
  // Speech synthesis (engines/speech): builtin espeak-ng wasm, an OpenAI-compatible
  // /v1/audio/speech, or none (replies without audio).
  SPEECH_ENGINE: z.enum(['builtin', 'openai', 'none']).default('builtin'),
  // The builtin synthesiser's worker pool (engines/speech/synthesis-pool.ts; SPEC.md S-9, S-10):
  // threads (0: the machine's cores), jobs waiting at most, longest wait before text only.
  SPEECH_WORKERS: intFrom(0, 64).default(0),
  SPEECH_QUEUE_MAX: intFrom(1, 100_000).default(512),
  SPEECH_MAX_WAIT_MS: intFrom(100, 600_000).default(8000),
  // Clauses each speech worker speaks while idle once started, so V8 has optimised espeak's code
  // before replies need it (SPEC.md S-12); 0: none.
  SPEECH_WARM_UP_CLAUSES: intFrom(0, 10_000).default(480),
  // How much nicer than the process the speech workers run on Linux (SPEC.md S-9): the event loop
  // gets the cores first.
  SPEECH_WORKER_NICE: intFrom(0, 19).default(5),
  SPEECH_OPENAI_BASE_URL: httpUrl.default('https://api.openai.com/v1'),
  SPEECH_OPENAI_API_KEY: z.string().min(1).optional(),
  SPEECH_OPENAI_MODEL: z.string().min(1).default('tts-1'),
  SPEECH_OPENAI_VOICE: z.string().min(1).default('alloy'),
  SPEECH_OPENAI_FORMAT: z.enum(['wav', 'pcm']).default('wav'),
  SPEECH_OPENAI_TIMEOUT_MS: intFrom(100, 600_000).default(30_000),
  // 1: send a custom voice's uploaded sample with each request (a cloning server; SPEC.md VU-8).
  SPEECH_VOICE_CLONING: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  // Voice-note transcription (engines/transcription; SPEC.md V-3): auto = the provider when
  // configured, else Debian's pocketsphinx for English notes when installed, else the browser's
  // transcript.
  TRANSCRIBE_ENGINE: z.enum(['auto', 'openai', 'pocketsphinx', 'hint', 'none']).default('auto'),
  TRANSCRIBE_POCKETSPHINX_MODEL: z.string().min(1).default('/usr/share/pocketsphinx/model/en-us'),
  TRANSCRIBE_OPENAI_BASE_URL: httpUrl.optional(),
  TRANSCRIBE_OPENAI_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_OPENAI_MODEL: z.string().min(1).default('whisper-1'),
  TRANSCRIBE_OPENAI_TIMEOUT_MS: intFrom(100, 600_000).default(60_000),
  AUTH_RATE_LIMIT_MAX: intFrom(1, 100_000).default(20),
  SOCKET_EVENT_RATE_LIMIT: intFrom(1, 100_000).default(30),
  SOCKET_RECORD_DIR: z.string().min(1).optional(),
  SHUTDOWN_GRACE_MS: intFrom(0, 120_000).default(5000),
  // How often the health monitor asks the database (and Redis, queues); a change pushes server:status.
  HEALTH_CHECK_INTERVAL_MS: intFrom(50, 600_000).default(5000),
  // How long one /health answer is given again (SPEC.md H-1): a probe storm asks the database once per window.
  HEALTH_MAX_AGE_MS: intFrom(0, 1000).default(1000),
  CLIENT_DIST: z.string().min(1).optional(),
  // Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits, lockouts).
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // SPEC.md W-5: Host names beyond APP_URL's and loopback that the app answers to.
  ALLOWED_HOSTS: z
    .string()
    .regex(
      /^(\s*[\w.-]+(:\d{1,5})?\s*(,\s*[\w.-]+(:\d{1,5})?\s*)*)?$/,
      'must be comma-separated host names, each with an optional :port',
    )
    .default('')
    .transform((v) => list(v).map((host) => host.toLowerCase())),
  // Sign-in through Google and GitHub (SPEC.md O-1): a provider is on when its id and secret are
  // both set. The endpoint overrides exist so tests can point at an authorization server on loopback.
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_AUTHORIZE_URL: httpUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: httpUrl.default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: httpUrl.default('https://openidconnect.googleapis.com/v1/userinfo'),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GITHUB_AUTHORIZE_URL: httpUrl.default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: httpUrl.default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  APP_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Alma <no-reply@localhost>'),
  // These accounts get the admin role (SPEC.md A-10); compared lower-cased.
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) => list(v).map((email) => email.toLowerCase())),
  RESET_TOKEN_TTL_MIN: intFrom(1, 7 * 24 * 60).default(60),
  VERIFY_TOKEN_TTL_H: intFrom(1, 30 * 24).default(48),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: intFrom(1, 100_000).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: intFrom(1, 100_000).default(20),
  LOGIN_LOCK_WINDOW_MIN: intFrom(1, 24 * 60).default(15),
  FREE_MESSAGES_PER_MONTH: intFrom(1, 10_000_000).optional(),
  // Reply audio files in DATA_DIR/audio (protocol/SPEC.md S-7).
  SPEECH_RETENTION_DAYS: intFrom(1, 3650).default(7),
  AUDIO_CLEANUP_INTERVAL_MIN: intFrom(1, 7 * 24 * 60).default(60),
  // Custom avatar processing (protocol/SPEC.md AU-3): worker threads per instance, shared fairly.
  AVATAR_WORKERS: intFrom(1, 8).default(2),
  // Voice sample analysis (protocol/SPEC.md M-9): worker threads per instance; 0 with REDIS_URL
  // leaves this instance's uploads to the others' workers.
  VOICE_JOB_WORKERS: intFrom(0, 8).default(1),
});

type Env = z.output<typeof EnvSchema>;

/**
 * Records a problem with one variable (the value shown beside it is the one given). A helper that
 * cannot build its part returns `z.NEVER` after it: the parse fails, so that value is never read.
 */
type Problem = (name: string, message: string) => void;

/**
 * The configuration the code reads: `EnvSchema`'s output turned into settings. `Config` is this
 * schema's output type, so a variable is declared once (name, type, default, validation in
 * `EnvSchema`; its setting here) and the type cannot drift from the parsing. Rules that span
 * variables are issues on the variable to fix; only when there are none does it touch the disk:
 * DATA_DIR is created and the JWT secret generated there on first run.
 */
const ConfigSchema = EnvSchema.transform((e, ctx) => {
  const problem: Problem = (name, message) => ctx.addIssue({ code: 'custom', path: [name], message });
  const dependent = {
    /** Set exactly when replyEngine is 'openai'. */
    openai: e.REPLY_ENGINE === 'openai' ? openaiConfig(e, problem) : null,
    /** Set exactly when replyEngine is 'local'. */
    llm: e.REPLY_ENGINE === 'local' ? localLlmConfig(e, problem) : null,
    /** Set exactly when speechEngine is 'openai'. */
    speechOpenai: e.SPEECH_ENGINE === 'openai' ? speechOpenaiConfig(e, problem) : null,
    /** Set when the provider is used: TRANSCRIBE_ENGINE=openai, or auto with a URL or key given. */
    transcribeOpenai: transcribeOpenaiConfig(e, problem),
    /** Null when the provider's client id and secret are not set (SPEC.md O-1). */
    oauth: {
      google: oauthClient('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, problem, {
        authorizeUrl: e.GOOGLE_AUTHORIZE_URL,
        tokenUrl: e.GOOGLE_TOKEN_URL,
        userinfoUrl: e.GOOGLE_USERINFO_URL,
      }),
      github: oauthClient('GITHUB', e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET, problem, {
        authorizeUrl: e.GITHUB_AUTHORIZE_URL,
        tokenUrl: e.GITHUB_TOKEN_URL,
        apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
      }),
    },
  };
  if (ctx.issues.length > 0) return z.NEVER;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    mongodbUri: e.MONGODB_URI,
    mongodbDb: e.MONGODB_DB,
    /** Unset: one process with in-memory limits, locks and rooms; set: instances share this Redis. */
    redisUrl: e.REDIS_URL,
    /** With REDIS_URL: an instance silent this long is dead; its replies and slots are taken over. */
    instanceLeaseMs: e.INSTANCE_LEASE_MS,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    /** SPEC.md A-3: how long a just-rotated refresh token still answers with its successor. */
    refreshReuseGraceS: e.REFRESH_REUSE_GRACE_S,
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
    replyEngine: e.REPLY_ENGINE,
    replyTokenDelayMs: e.REPLY_TOKEN_DELAY_MS,
    ...dependent,
    speechEngine: e.SPEECH_ENGINE,
    /** The builtin synthesiser's worker pool: null size is the machine's cores. */
    speechPool: {
      size: e.SPEECH_WORKERS || null,
      maxQueued: e.SPEECH_QUEUE_MAX,
      maxWaitMs: e.SPEECH_MAX_WAIT_MS,
      idleWarmUpClauses: e.SPEECH_WARM_UP_CLAUSES,
      nice: e.SPEECH_WORKER_NICE,
    },
    transcribeEngine: e.TRANSCRIBE_ENGINE,
    /** The pocketsphinx en-us model folder (TRANSCRIBE_ENGINE=pocketsphinx, or auto when present). */
    transcribePocketsphinxModel: resolve(e.TRANSCRIBE_POCKETSPHINX_MODEL),
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX,
    socketEventRateLimit: e.SOCKET_EVENT_RATE_LIMIT,
    socketRecordDir: e.SOCKET_RECORD_DIR ? resolve(e.SOCKET_RECORD_DIR) : undefined,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    healthCheckIntervalMs: e.HEALTH_CHECK_INTERVAL_MS,
    healthMaxAgeMs: e.HEALTH_MAX_AGE_MS,
    clientDist: resolve(e.CLIENT_DIST ?? defaultClientDist()),
    trustProxy: e.TRUST_PROXY,
    /** SPEC.md W-5: extra `host[:port]` names answered, lower case (APP_URL's and loopback always are). */
    allowedHosts: e.ALLOWED_HOSTS,
    /** `NODE_ENV=production`: the outbox keeps mail links out of the log (SPEC.md W-4). */
    production: e.NODE_ENV === 'production',
    /** Public base of the links in emails, without a trailing slash. */
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    /** Unset: emails go to DATA_DIR/outbox and the log. */
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmails: e.ADMIN_EMAILS,
    resetTokenTtlMin: e.RESET_TOKEN_TTL_MIN,
    verifyTokenTtlH: e.VERIFY_TOKEN_TTL_H,
    loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
    loginLockWindowMin: e.LOGIN_LOCK_WINDOW_MIN,
    /** The free plan's monthly message cap; PLAN_TABLE's value unless set (SPEC.md L-1). */
    freeMessagesPerMonth: e.FREE_MESSAGES_PER_MONTH ?? PLAN_TABLE.free.limits.messages,
    /** Reply audio files older than this many days are removed (SPEC.md S-7). */
    speechRetentionDays: e.SPEECH_RETENTION_DAYS,
    /** How often the retention sweep runs, in minutes. */
    audioCleanupIntervalMin: e.AUDIO_CLEANUP_INTERVAL_MIN,
    /** Worker threads processing custom avatars at once. */
    avatarWorkers: e.AVATAR_WORKERS,
    /** Worker threads analysing voice samples at once; 0 runs none here (with Redis; else 1). */
    voiceJobWorkers: e.VOICE_JOB_WORKERS,
  };
});

export type Config = z.output<typeof ConfigSchema>;
/** An OAuth 2.0 client registered at an outside provider. */
export type OAuthClientConfig = NonNullable<Config['oauth']['google'] | Config['oauth']['github']>;

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
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        return `${name}=${JSON.stringify(cleaned[name] ?? '')}: ${issue.message}`;
      }),
    );
  }
  return parsed.data;
}

/** A comma-separated list, trimmed, without empty entries. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A provider is configured by both its id and secret; one without the other is a mistake worth stopping for. */
function oauthClient<T extends { authorizeUrl: string; tokenUrl: string }>(
  prefix: string,
  clientId: string | undefined,
  clientSecret: string | undefined,
  problem: Problem,
  endpoints: T,
): ({ clientId: string; clientSecret: string } & T) | null {
  if (clientId && clientSecret) return { clientId, clientSecret, ...endpoints };
  if (clientId || clientSecret) {
    const [missing, given] = clientId ? ['SECRET', 'ID'] : ['ID', 'SECRET'];
    problem(`${prefix}_CLIENT_${missing}`, `is required when ${prefix}_CLIENT_${given} is set`);
  }
  return null;
}

/** The model is required; so is a key for OpenAI itself (other compatible servers may need none). */
function openaiConfig(e: Env, problem: Problem) {
  if (!e.OPENAI_API_KEY && new URL(e.OPENAI_BASE_URL).hostname === 'api.openai.com') {
    problem('OPENAI_API_KEY', 'is required when REPLY_ENGINE=openai and OPENAI_BASE_URL is api.openai.com');
  }
  if (!e.OPENAI_MODEL) {
    problem('OPENAI_MODEL', 'is required when REPLY_ENGINE=openai');
    return z.NEVER;
  }
  return {
    baseUrl: e.OPENAI_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.OPENAI_API_KEY,
    model: e.OPENAI_MODEL,
    timeoutMs: e.OPENAI_TIMEOUT_MS,
    maxRetries: e.OPENAI_MAX_RETRIES,
  };
}

/** OpenAI itself needs a key; other compatible servers may need none. */
function speechOpenaiConfig(e: Env, problem: Problem) {
  if (!e.SPEECH_OPENAI_API_KEY && new URL(e.SPEECH_OPENAI_BASE_URL).hostname === 'api.openai.com') {
    problem(
      'SPEECH_OPENAI_API_KEY',
      'is required when SPEECH_ENGINE=openai and SPEECH_OPENAI_BASE_URL is api.openai.com',
    );
  }
  return {
    baseUrl: e.SPEECH_OPENAI_BASE_URL.replace(/\/+$/, ''),
    apiKey: e.SPEECH_OPENAI_API_KEY,
    model: e.SPEECH_OPENAI_MODEL,
    /** Spoken when the requested voice is one of the builtin catalogue's espeak voices. */
    voice: e.SPEECH_OPENAI_VOICE,
    responseFormat: e.SPEECH_OPENAI_FORMAT,
    timeoutMs: e.SPEECH_OPENAI_TIMEOUT_MS,
    /** Send custom voices' samples (SPEECH_VOICE_CLONING=1). */
    voiceCloning: e.SPEECH_VOICE_CLONING,
  };
}

function transcribeOpenaiConfig(e: Env, problem: Problem) {
  const given = e.TRANSCRIBE_OPENAI_BASE_URL !== undefined || e.TRANSCRIBE_OPENAI_API_KEY !== undefined;
  if (e.TRANSCRIBE_ENGINE !== 'openai' && !(e.TRANSCRIBE_ENGINE === 'auto' && given)) return null;
  const baseUrl = e.TRANSCRIBE_OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  if (!e.TRANSCRIBE_OPENAI_API_KEY && new URL(baseUrl).hostname === 'api.openai.com') {
    problem('TRANSCRIBE_OPENAI_API_KEY', 'is required when TRANSCRIBE_OPENAI_BASE_URL is api.openai.com');
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: e.TRANSCRIBE_OPENAI_API_KEY,
    model: e.TRANSCRIBE_OPENAI_MODEL,
    timeoutMs: e.TRANSCRIBE_OPENAI_TIMEOUT_MS,
  };
}

/** The model file must exist at start-up, not be discovered missing on the first reply. */
function localLlmConfig(e: Env, problem: Problem) {
  if (!e.LLM_MODEL_PATH) {
    problem('LLM_MODEL_PATH', 'is required when REPLY_ENGINE=local (a .gguf file)');
    return z.NEVER;
  }
  /** Absolute. */
  const modelPath = resolve(e.LLM_MODEL_PATH);
  if (!existsSync(modelPath) || !statSync(modelPath).isFile()) {
    problem('LLM_MODEL_PATH', `no such file (${modelPath})`);
    return z.NEVER;
  }
  return {
    modelPath,
    threads: e.LLM_THREADS,
    contextSize: e.LLM_CONTEXT_SIZE,
    maxTokens: e.LLM_MAX_TOKENS,
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
