import { ApiErrorSchema } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../test-support/app.ts';
import { BASIS_WORKER_CSP, contentSecurityPolicy, hostAllowed } from './security-headers.ts';

const APP_URL = 'https://alma.example';

describe('security headers (SPEC.md W-1 … W-5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ APP_URL, TRUST_PROXY: 'true', AUTH_RATE_LIMIT_MAX: '1000' });
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { host: 'alma.example', ...headers } });

  it("W-1 connect-src lists only the app's own origins, never any ws:/wss: host", async () => {
    const csp = String((await get('/health')).headers['content-security-policy']);
    const connect = csp.split(';').find((d) => d.startsWith('connect-src '));
    expect(connect?.split(' ').slice(1)).toEqual(["'self'", 'blob:', 'wss://alma.example']);
    expect(contentSecurityPolicy('http://localhost:3000')).toContain(
      "connect-src 'self' blob: ws://localhost:3000;",
    );
  });

  it('W-1 keeps the rest of the policy and the other headers', async () => {
    const res = await get('/health');
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(String(res.headers['content-security-policy'])).toContain("object-src 'none'");
  });

  it('W-2 sends HSTS only on requests that came over https', async () => {
    expect((await get('/health')).headers['strict-transport-security']).toBeUndefined();
    const proxied = await get('/health', { 'x-forwarded-proto': 'https' });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('W-3 answers every auth route with Cache-Control: no-store, refusals included', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { host: 'alma.example' },
      payload: registrationBody({ email: 'nostore@example.com' }),
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { host: 'alma.example' },
      payload: { email: 'nostore@example.com', password: 'Wrong1234' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect((await get('/auth/me')).headers['cache-control']).toBe('no-store');
  });

  it("W-5 refuses a Host that is not the app's with 421 misdirected_request, in es and en", async () => {
    for (const [language, message] of [
      ['en', 'This address does not serve Alma. Open the app at its own address.'],
      ['es', 'Esta dirección no sirve Alma. Abre la aplicación en su propia dirección.'],
    ] as const) {
      const res = await get('/health', { host: 'rebound.attacker.example', 'accept-language': language });
      expect(res.statusCode).toBe(421);
      expect(ApiErrorSchema.parse(json(res)).error).toEqual({ code: 'misdirected_request', message });
    }
    const forged = await t.app.inject({
      method: 'POST',
      url: '/auth/forgotpassword',
      headers: { host: 'attacker.example' },
      payload: { email: 'nostore@example.com' },
    });
    expect(forged.statusCode).toBe(421);
    expect((await get('/health')).statusCode).toBe(200);
    expect((await get('/health', { host: 'localhost:8080' })).statusCode).toBe(200);
  });

  it('W-5 compares hosts without default ports and case, and names loopback on any port', () => {
    expect(hostAllowed('ALMA.example:443', 'https', APP_URL)).toBe(true);
    expect(hostAllowed('alma.example:8443', 'https', APP_URL)).toBe(false);
    expect(hostAllowed('alma.example.attacker.example', 'https', APP_URL)).toBe(false);
    expect(hostAllowed('127.0.0.1:3203', 'http', APP_URL)).toBe(true);
    expect(hostAllowed('[::1]:3000', 'http', APP_URL)).toBe(true);
    expect(hostAllowed('localhost.attacker.example', 'http', APP_URL)).toBe(false);
    expect(hostAllowed(undefined, 'http', APP_URL)).toBe(false);
    expect(hostAllowed('app.test:8080', 'http', 'http://app.test:8080')).toBe(true);
    expect(hostAllowed('192.168.1.20:3000', 'http', APP_URL, ['192.168.1.20:3000'])).toBe(true);
    expect(hostAllowed('192.168.1.20:3001', 'http', APP_URL, ['192.168.1.20:3000'])).toBe(false);
  });

  it('W-5 ALLOWED_HOSTS adds names the app answers to; the proxy forwards the public one (TRUST_PROXY)', async () => {
    const lan = await buildTestApp({
      APP_URL,
      ALLOWED_HOSTS: 'Alma.LAN:8080, 10.0.0.5',
      TRUST_PROXY: 'true',
    });
    try {
      const at = (host: string, headers: Record<string, string> = {}) =>
        lan.app.inject({ method: 'GET', url: '/health', headers: { host, ...headers } });
      expect((await at('alma.lan:8080')).statusCode).toBe(200);
      expect((await at('10.0.0.5')).statusCode).toBe(200);
      expect((await at('10.0.0.6')).statusCode).toBe(421);
      // Behind Caddy the Host the browser sent arrives as X-Forwarded-Host.
      expect((await at('app:3000', { 'x-forwarded-host': 'alma.example' })).statusCode).toBe(200);
      expect((await at('app:3000', { 'x-forwarded-host': 'evil.example' })).statusCode).toBe(421);
    } finally {
      await lan.close();
    }
  });

  it('W-1 W-3 answers given before the hooks run (a malformed URL, headers too large) carry the headers too', async () => {
    const malformed = await get('/chat/sessions/%E0%A4%A');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-security-policy']).toContain("connect-src 'self' blob:");
    expect(malformed.headers['cache-control']).toBe('no-store');

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const huge = await fetch(`${address}/auth/me?${'x'.repeat(40_000)}`, {
      headers: { host: 'alma.example' },
    });
    expect(huge.status).toBe(431);
    expect(huge.headers.get('content-security-policy')).toContain("connect-src 'self' blob:");
    expect(huge.headers.get('cache-control')).toBe('no-store');
  });

  it('W-1 the Basis transcoder worker keeps its own policy (eval in that worker only)', async () => {
    const worker = await get('/decoders/basis-worker.js');
    expect(worker.headers['content-security-policy']).toBe(BASIS_WORKER_CSP);
    expect(String((await get('/')).headers['content-security-policy'])).not.toContain("'unsafe-eval'");
  });
});
