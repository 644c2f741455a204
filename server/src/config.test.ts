import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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

  it('splits CORS origins', () => {
    expect(
      loadConfig({ DATA_DIR: dir(), CORS_ORIGINS: 'https://a.example, https://b.example' }).corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example']);
  });
});
