import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-support/app.ts';

const ALLOWED = 'http://allowed.example';
const OTHER = 'http://evil.example';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ CORS_ORIGINS: `${ALLOWED},http://second.example` });
});
afterAll(async () => t.close());

const get = (origin?: string) =>
  t.app.inject({ method: 'GET', url: '/health', headers: origin ? { origin } : {} });
const preflight = (origin: string | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'OPTIONS',
    url: '/chat/sessions',
    headers: { ...(origin ? { origin } : {}), ...headers },
  });

describe('CORS for the configured origins (CORS_ORIGINS)', () => {
  it('an allowed origin is named back, with credentials; every answer varies by Origin', async () => {
    for (const origin of [ALLOWED, 'http://second.example']) {
      const res = await get(origin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers.vary).toBe('Origin');
    }
    const sameOrigin = await get();
    expect(sameOrigin.statusCode).toBe(200);
    expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined();
    expect(sameOrigin.headers.vary).toBe('Origin');
  });

  it('another origin gets no CORS header (its browser keeps the answer from the page)', async () => {
    const res = await get(OTHER);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toBe('Origin');
  });

  it('a preflight from an allowed origin is answered 204 with the methods and the headers asked for', async () => {
    const res = await preflight(ALLOWED, {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,HEAD,POST',
      'access-control-allow-headers': 'authorization, content-type',
      'content-length': '0',
    });
    expect(res.headers.vary).toBe('Origin, Access-Control-Request-Headers');
    // The security headers are on it too (W-1).
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a preflight from another origin is not found; one without its method or origin is refused', async () => {
    const other = await preflight(OTHER, { 'access-control-request-method': 'POST' });
    expect(other.statusCode).toBe(404);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(ALLOWED)).statusCode).toBe(400);
    expect((await preflight(undefined, { 'access-control-request-method': 'POST' })).statusCode).toBe(400);
  });
});
