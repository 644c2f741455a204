import { HealthSchema, PROTOCOL_VERSION } from '@alma/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, json, type TestApp } from '../../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

describe('GET /health', () => {
  it('reports status, database and engines', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBeTruthy();
    const health = HealthSchema.parse(json(res));
    expect(health).toMatchObject({
      status: 'online',
      protocolVersion: PROTOCOL_VERSION,
      database: { kind: 'embedded', ok: true },
    });
    expect(health.engines.reply).toBe('builtin');
  });

  it('H-1 M-7 M-9 reports each job queue: this instance, its workers, what runs here and what waits', async () => {
    const health = HealthSchema.parse(json(await t.app.inject({ method: 'GET', url: '/health' })));
    const idle = { running: [], waiting: 0, finished: 0 };
    expect(health.avatarJobs).toMatchObject({ workers: 2, ...idle });
    expect(health.voiceJobs).toMatchObject({ workers: 1, ...idle });
    // One instance id for both queues: the instance's own (M-5's leases name it the same way).
    expect(health.voiceJobs?.instance).toBe(health.avatarJobs?.instance);
  });

  it('H-1 gives an answer again for up to 1 s (HEALTH_MAX_AGE_MS), then runs the checks again: degraded once the database does not answer', async () => {
    const health = () => t.app.inject({ method: 'GET', url: '/health' });
    const start = Date.now() + 5000; // past any answer earlier tests left
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const first = await health();
    expect(HealthSchema.parse(json(first))).toMatchObject({ status: 'online', database: { ok: true } });
    const ping = t.storage.ping.bind(t.storage);
    let pings = 0;
    t.storage.ping = async () => {
      pings++;
      return false; // the database is unreachable: a test double at that boundary
    };
    try {
      vi.setSystemTime(start + 999);
      const kept = await health();
      expect(kept.body).toBe(first.body);
      expect(kept.headers['cache-control']).toBe('no-store');
      expect(pings).toBe(0);
      vi.setSystemTime(start + 1000);
      const fresh = HealthSchema.parse(json(await health()));
      expect(fresh).toMatchObject({ status: 'degraded', database: { ok: false } });
      expect(fresh.checks).toContainEqual({ name: 'database', ok: false });
      expect(pings).toBe(1);
    } finally {
      t.storage.ping = ping;
    }
  });

  it('answers unknown API paths with a JSON 404 in the caller language', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({
      error: { code: 'not_found', message: 'The requested resource was not found.' },
    });
  });
});
