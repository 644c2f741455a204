import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvSchema, loadConfig } from './config.ts';
import {
  DEFAULT_SPEECH_MAX_WAIT_MS,
  DEFAULT_SPEECH_QUEUE_MAX,
  DEFAULT_SPEECH_WARM_UP_CLAUSES,
  DEFAULT_SPEECH_WORKER_NICE,
} from './engines/speech/synthesis-pool.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'alma-config-'));

describe('loadConfig', () => {
  it('has working defaults and keeps a generated JWT secret across restarts', () => {
    const dataDir = dir();
    const a = loadConfig({ DATA_DIR: dataDir });
    expect(a).toMatchObject({ port: 3000, host: '0.0.0.0', mongodbUri: undefined, replyEngine: 'builtin' });
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(a.jwtSecret);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATA_DIR: dir(), MONGODB_URI: '', PORT: '' }).port).toBe(3000);
  });

  it('names every bad variable in one clear error', () => {
    const attempt = () =>
      loadConfig({
        DATA_DIR: dir(),
        PORT: 'abc',
        MONGODB_URI: 'postgres://x',
        JWT_SECRET: 'short',
        LOG_LEVEL: 'loud',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as ConfigError).message;
      for (const name of [
        'PORT="abc"',
        'MONGODB_URI="postgres://x"',
        'JWT_SECRET="short"',
        'LOG_LEVEL="loud"',
      ]) {
        expect(message).toContain(name);
      }
    }
  });

  it('names the problems between variables all at once, and touches no disk when it refuses', () => {
    const dataDir = join(dir(), 'fresh');
    const attempt = () =>
      loadConfig({
        DATA_DIR: dataDir,
        REPLY_ENGINE: 'openai',
        GOOGLE_CLIENT_ID: 'id-without-secret',
        TRANSCRIBE_ENGINE: 'openai',
      });
    expect(attempt).toThrow(ConfigError);
    expect(() => attempt()).toThrow(
      [
        'Invalid configuration:',
        '  - OPENAI_API_KEY="": is required when REPLY_ENGINE=openai and OPENAI_BASE_URL is api.openai.com',
        '  - OPENAI_MODEL="": is required when REPLY_ENGINE=openai',
        '  - TRANSCRIBE_OPENAI_API_KEY="": is required when TRANSCRIBE_OPENAI_BASE_URL is api.openai.com',
        '  - GOOGLE_CLIENT_SECRET="": is required when GOOGLE_CLIENT_ID is set',
      ].join('\n'),
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('REDIS_URL is optional (unset: one process in memory) and must be a redis:// or rediss:// URL', () => {
    expect(loadConfig({ DATA_DIR: dir() }).redisUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir(), REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir(), REDIS_URL: 'rediss://:pw@cache:6380/2' }).redisUrl).toBe(
      'rediss://:pw@cache:6380/2',
    );
    for (const bad of ['localhost:6379', 'http://cache:6379', 'redis://']) {
      expect(() => loadConfig({ DATA_DIR: dir(), REDIS_URL: bad })).toThrow(
        `REDIS_URL=${JSON.stringify(bad)}: must start with redis:// or rediss://`,
      );
    }
  });

  it('splits CORS origins', () => {
    expect(
      loadConfig({ DATA_DIR: dir(), CORS_ORIGINS: 'https://a.example, https://b.example' }).corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('loadConfig: accounts and email', () => {
  it('defaults APP_URL to localhost:PORT, MAIL_FROM, link lifetimes and the login guard', () => {
    expect(loadConfig({ DATA_DIR: dir(), PORT: '4100' })).toMatchObject({
      appUrl: 'http://localhost:4100',
      smtpUrl: undefined,
      mailFrom: 'Alma <no-reply@localhost>',
      adminEmails: [],
      resetTokenTtlMin: 60,
      verifyTokenTtlH: 48,
      loginMaxFailuresPerAccount: 5,
      loginMaxFailuresPerAddress: 20,
      loginLockWindowMin: 15,
    });
  });

  it('A-10 reads ADMIN_EMAILS as a trimmed, lower-cased list; APP_URL loses its trailing slash', () => {
    const config = loadConfig({
      DATA_DIR: dir(),
      ADMIN_EMAILS: ' Boss@Example.com, ,ops@example.com ',
      APP_URL: 'https://alma.example.com/',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
    });
    expect(config.adminEmails).toEqual(['boss@example.com', 'ops@example.com']);
    expect(config.appUrl).toBe('https://alma.example.com');
    expect(config.smtpUrl).toBe('smtps://user:pass@mail.example.com:465');
  });

  it('names bad values of the new variables', () => {
    const attempt = () =>
      loadConfig({
        DATA_DIR: dir(),
        APP_URL: 'ftp://x',
        SMTP_URL: 'http://mail',
        RESET_TOKEN_TTL_MIN: '0',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: 'many',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      for (const name of ['APP_URL', 'SMTP_URL', 'RESET_TOKEN_TTL_MIN', 'LOGIN_MAX_FAILURES_PER_ACCOUNT']) {
        expect((error as ConfigError).message).toContain(`${name}=`);
      }
    }
  });
});

describe('FREE_MESSAGES_PER_MONTH', () => {
  it('L-1 defaults to the plan table, can be lowered, and refuses zero', () => {
    expect(loadConfig({ DATA_DIR: dir() }).freeMessagesPerMonth).toBe(500);
    expect(loadConfig({ DATA_DIR: dir(), FREE_MESSAGES_PER_MONTH: '3' }).freeMessagesPerMonth).toBe(3);
    expect(() => loadConfig({ DATA_DIR: dir(), FREE_MESSAGES_PER_MONTH: '0' })).toThrow(
      /FREE_MESSAGES_PER_MONTH="0"/,
    );
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless asked for, so X-Forwarded-For cannot dodge per-address limits', () => {
    expect(loadConfig({ DATA_DIR: dir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'yes' })).toThrow(ConfigError);
  });
});

describe('ALLOWED_HOSTS', () => {
  it('W-5 is a trimmed, lower-cased list of host[:port] names, empty unless set; anything else is named', () => {
    expect(loadConfig({ DATA_DIR: dir() }).allowedHosts).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dir(), ALLOWED_HOSTS: ' Alma.Example.com , internal:8080' }).allowedHosts,
    ).toEqual(['alma.example.com', 'internal:8080']);
    expect(() => loadConfig({ DATA_DIR: dir(), ALLOWED_HOSTS: 'https://alma.example.com' })).toThrow(
      'ALLOWED_HOSTS="https://alma.example.com"',
    );
  });
});

describe('the README’s environment table', () => {
  it('lists every variable with the default loadConfig gives it', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const rows = new Map<string, string>();
    for (const [, name, cell] of readme.matchAll(/^\| `([A-Z0-9_]+)`\s*\| ([^|]*)\|/gm))
      rows.set(name!, cell!.trim());
    const defaults = EnvSchema.parse({}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(defaults)) {
      expect(rows.has(name), `${name} is in the README's table`).toBe(true);
      // A cell that starts with a value in backticks states the default; "unset: …" describes one.
      const stated = /^`([^`]*)`/.exec(rows.get(name) ?? '')?.[1];
      if (stated === undefined) continue;
      // A switch is written as the variable takes it: `0`/`1` or `false`/`true`.
      const written =
        typeof value === 'boolean'
          ? value
            ? ['1', 'true']
            : ['0', 'false']
          : typeof value === 'string' || typeof value === 'number'
            ? [String(value)]
            : [];
      if (written.length === 0) continue; // lists ("unset: …") and absent values state no default
      expect(written, `${name}'s default`).toContain(stated);
    }
  });
});

describe('the speech pool’s defaults', () => {
  it('are the configuration’s', () => {
    const pool = loadConfig({ DATA_DIR: dir() }).speechPool;
    expect(pool.idleWarmUpClauses).toBe(DEFAULT_SPEECH_WARM_UP_CLAUSES);
    expect(pool.maxQueued).toBe(DEFAULT_SPEECH_QUEUE_MAX);
    expect(pool.maxWaitMs).toBe(DEFAULT_SPEECH_MAX_WAIT_MS);
    expect(pool.nice).toBe(DEFAULT_SPEECH_WORKER_NICE);
  });
});
