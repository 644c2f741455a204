import { HealthSchema } from '@alma/protocol';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openStorage } from '../storage/index.ts';
import { buildTestApp, json, type TestApp } from '../test-support/app.ts';
import { freePort, startTestRedis, type TestRedis } from '../test-support/redis-server.ts';

/** REDIS_URL (issue 15) against a real redis-server the test starts on a free port. */
let redis: TestRedis;
let t: TestApp;
beforeAll(async () => {
  redis = await startTestRedis();
  t = await buildTestApp({ REDIS_URL: redis.url });
});
afterAll(async () => {
  await t?.close();
  await redis?.stop();
});

const health = async (app: TestApp) =>
  HealthSchema.parse(json(await app.app.inject({ method: 'GET', url: '/health' })));

describe('REDIS_URL', () => {
  it('H-1 /health lists a `redis` check, ok again after Redis restarts (the client reconnects by itself)', async () => {
    const first = await health(t);
    expect(first.status).toBe('online');
    expect(first.checks).toContainEqual({ name: 'redis', ok: true });
    await redis.restart(); // stopped, then started again on the same port
    // The client reconnects by itself; until then the check says so.
    const deadline = Date.now() + 10_000;
    let back = await health(t);
    while (back.status !== 'online' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      back = await health(t);
    }
    expect(back.checks.find((c) => c.name === 'redis')).toEqual({ name: 'redis', ok: true });
  });

  it('H-1 a Redis that does not answer makes the server degraded, naming the check', async () => {
    const stopped = await startTestRedis();
    const app = await buildTestApp({ REDIS_URL: stopped.url });
    try {
      await stopped.stop();
      const down = await health(app);
      expect(down.status).toBe('degraded');
      expect(down.checks.find((c) => c.name === 'redis')).toMatchObject({ name: 'redis', ok: false });
    } finally {
      await app.close();
    }
  });

  it('without REDIS_URL there is no redis check: one process, nothing else to install', async () => {
    const app = await buildTestApp();
    try {
      expect((await health(app)).checks.map((c) => c.name)).toEqual(['database']);
    } finally {
      await app.close();
    }
  });

  it('start-up stops with a message naming REDIS_URL when nothing answers there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'alma-redis-down-'));
    const storage = await openStorage({ dataDir, mongodbUri: undefined });
    try {
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      });
      await expect(buildApp({ config, storage, logger: false })).rejects.toThrow(
        /REDIS_URL: cannot reach Redis/,
      );
    } finally {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
