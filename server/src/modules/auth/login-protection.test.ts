import { ApiErrorSchema, AuthSessionSchema } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';
import { captureMailer, manualClock } from '../../test-support/mail.ts';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';

const MIN = 60_000;

describe('login brute-force protection (A-8), defaults of the configuration', () => {
  const time = manualClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { clock: time.clock, mailer: captureMailer() });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: registrationBody({ name: 'Ana', email: 'ana@example.com' }),
    });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  const login = (email: string, password: string, remoteAddress: string, language = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password },
      remoteAddress,
      headers: { 'accept-language': language },
    });

  it('A-8 after 5 failures from one address, that pair answers 429 with retryAfterMs, even to the right password', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await login('ana@example.com', 'Wrong1234', '10.1.0.1')).statusCode).toBe(401);
      time.advance(MIN);
    }
    for (const [language, message] of [
      ['en', 'Too many requests. Please wait a moment and try again.'],
      ['es', 'Demasiadas solicitudes. Espera un momento e inténtalo de nuevo.'],
    ] as const) {
      const locked = await login('ana@example.com', 'Secret123', '10.1.0.1', language);
      expect(locked.statusCode).toBe(429);
      const { error } = ApiErrorSchema.parse(json(locked));
      expect(error).toEqual({ code: 'rate_limited', message, retryAfterMs: 10 * MIN });
      expect(locked.headers['retry-after']).toBe(String(10 * 60));
    }
    // The owner elsewhere is not locked out by that address's failures.
    expect((await login('ana@example.com', 'Secret123', '10.1.0.2')).statusCode).toBe(200);
    time.advance(10 * MIN);
    const ok = await login('ana@example.com', 'Secret123', '10.1.0.1');
    expect(ok.statusCode).toBe(200);
    AuthSessionSchema.parse(json(ok));
    time.advance(16 * MIN);
  });

  it('A-8 strangers failing from many addresses never block the owner on a known device (issue 11)', async () => {
    expect((await login('ana@example.com', 'Secret123', '10.6.0.1')).statusCode).toBe(200); // known now
    for (let i = 0; i < 30; i++) {
      const res = await login('ana@example.com', 'Wrong1234', `10.7.${i}.1`);
      expect([401, 429]).toContain(res.statusCode);
      time.advance(100);
    }
    for (let i = 0; i < 3; i++) {
      expect((await login('ana@example.com', 'Secret123', '10.6.0.1')).statusCode).toBe(200);
    }
    time.advance(16 * MIN);
  });

  it('A-8 past 5 failures the account is slowed for unknown addresses: spaced attempts, the spacing doubling', async () => {
    for (let i = 0; i < 5; i++) await login('ana@example.com', 'Wrong1234', `10.8.${i}.1`);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      // One attempt may run now; a second at once must wait for the spacing.
      expect((await login('ana@example.com', 'Wrong1234', `10.8.1${i}.1`)).statusCode).toBe(401);
      const early = await login('ana@example.com', 'Secret123', `10.8.2${i}.1`);
      expect(early.statusCode).toBe(429);
      waits.push(ApiErrorSchema.parse(json(early)).error.retryAfterMs ?? 0);
      time.advance(waits[i] ?? 0);
    }
    expect(waits).toEqual([1000, 2000, 4000]);
    // The owner from a new address gets through once the wait has passed: slowed, not refused.
    time.advance(8000);
    expect((await login('ana@example.com', 'Secret123', '10.8.30.1')).statusCode).toBe(200);
    time.advance(16 * MIN);
  });

  it('A-8 a success clears its pair', async () => {
    for (let i = 0; i < 4; i++) await login('ana@example.com', 'Wrong1234', '10.2.0.1');
    expect((await login('ana@example.com', 'Secret123', '10.2.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await login('ana@example.com', 'Wrong1234', '10.2.0.1');
    expect((await login('ana@example.com', 'Secret123', '10.2.0.1')).statusCode).toBe(200);
    time.advance(16 * MIN);
  });

  it('A-8 after 20 failures from one address within 15 minutes, that address is refused for every account', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await login(`guess${i}@example.com`, 'Wrong1234', '10.3.0.1')).statusCode).toBe(401);
    }
    const locked = await login('ana@example.com', 'Secret123', '10.3.0.1');
    expect(locked.statusCode).toBe(429);
    expect(ApiErrorSchema.parse(json(locked)).error.retryAfterMs).toBe(15 * MIN);
    expect((await login('ana@example.com', 'Secret123', '10.3.0.2')).statusCode).toBe(200);
    time.advance(15 * MIN);
    expect((await login('ana@example.com', 'Secret123', '10.3.0.1')).statusCode).toBe(200);
  });

  it('A-8 a forged X-Forwarded-For does not move a locked address elsewhere (TRUST_PROXY off)', async () => {
    const attempt = (forwarded: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: `spoof-${forwarded}@example.com`, password: 'Wrong1234' },
        remoteAddress: '10.9.0.1',
        headers: { 'x-forwarded-for': forwarded },
      });
    for (let i = 0; i < 20; i++) expect((await attempt(`203.0.113.${i}`)).statusCode).toBe(401);
    expect((await attempt('198.51.100.7')).statusCode).toBe(429);
    time.advance(16 * MIN);
  });

  it('A-8 unknown emails lock and slow the same way, so a lockout reveals nothing (A-2)', async () => {
    for (let i = 0; i < 5; i++) await login('ghost@example.com', 'Wrong1234', '10.4.0.1');
    expect((await login('ghost@example.com', 'Wrong1234', '10.4.0.1')).statusCode).toBe(429);
    expect((await login('ghost@example.com', 'Wrong1234', '10.4.1.1')).statusCode).toBe(401);
    expect((await login('ghost@example.com', 'Wrong1234', '10.4.1.2')).statusCode).toBe(429);
  });

  it('A-8 wrong current passwords in updatepassword count toward the pair lock', async () => {
    time.advance(16 * MIN);
    const s = AuthSessionSchema.parse(json(await login('ana@example.com', 'Secret123', '10.5.0.1')));
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/auth/updatepassword',
        headers: { authorization: `Bearer ${s.token}` },
        payload: { currentPassword: 'Wrong1234', newPassword: 'Newpass456' },
        remoteAddress: '10.5.0.1',
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await login('ana@example.com', 'Secret123', '10.5.0.1')).statusCode).toBe(429);
  });
});

describe('LOGIN_* configuration (A-8)', () => {
  it('A-8 honours LOGIN_MAX_FAILURES_PER_ACCOUNT, LOGIN_MAX_FAILURES_PER_ADDRESS and LOGIN_LOCK_WINDOW_MIN', async () => {
    const time = manualClock();
    const t = await buildTestApp(
      {
        AUTH_RATE_LIMIT_MAX: '10000',
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '2',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '3',
        LOGIN_LOCK_WINDOW_MIN: '1',
      },
      { clock: time.clock, mailer: captureMailer() },
    );
    try {
      const login = (email: string, remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email, password: 'Wrong1234' },
          remoteAddress,
        });
      await login('a@example.com', '10.0.0.1');
      await login('a@example.com', '10.0.0.1');
      const account = await login('a@example.com', '10.0.0.1');
      expect(account.statusCode).toBe(429);
      expect(ApiErrorSchema.parse(json(account)).error.retryAfterMs).toBe(MIN);
      await login('b@example.com', '10.0.0.9');
      await login('c@example.com', '10.0.0.9');
      await login('d@example.com', '10.0.0.9');
      expect((await login('e@example.com', '10.0.0.9')).statusCode).toBe(429);
      time.advance(MIN);
      expect((await login('a@example.com', '10.0.0.9')).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('A-8 M-2 with REDIS_URL the lockout is one for every instance', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => redis?.stop());

  it('A-8 M-2 failures counted on one instance lock the pair on another; the owner elsewhere still signs in', async () => {
    const time = manualClock();
    const env = { AUTH_RATE_LIMIT_MAX: '10000', REDIS_URL: redis.url };
    const a = await buildTestApp(env, { clock: time.clock, mailer: captureMailer() });
    const b = await buildTestApp(env, { clock: time.clock, mailer: captureMailer() });
    try {
      // Each test app has its own database; the account exists in both, the counts are Redis's.
      for (const t of [a, b]) {
        const registered = await t.app.inject({
          method: 'POST',
          url: '/auth/register',
          payload: registrationBody({ email: 'shared@example.com' }),
        });
        expect(registered.statusCode).toBe(201);
      }
      const login = (t: TestApp, password: string, remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'shared@example.com', password },
          remoteAddress,
        });
      for (let i = 0; i < 5; i++) {
        expect((await login(i % 2 ? a : b, 'Wrong1234', '10.9.0.1')).statusCode).toBe(401);
      }
      expect((await login(a, 'Secret123', '10.9.0.1')).statusCode).toBe(429);
      expect((await login(b, 'Secret123', '10.9.0.1')).statusCode).toBe(429);
      expect((await login(b, 'Secret123', '10.9.0.2')).statusCode).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('admins by configuration (A-10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(
      { AUTH_RATE_LIMIT_MAX: '10000', ADMIN_EMAILS: ' Boss@Example.com ,second@example.com' },
      { mailer: captureMailer() },
    );
  });
  afterAll(async () => t.close());

  const claims = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub: string;
      role: string;
    };
  const register = async (email: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: registrationBody({ name: 'Someone', email }),
    });
    return AuthSessionSchema.parse(json(res));
  };
  const login = async (email: string) =>
    AuthSessionSchema.parse(
      json(
        await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'Secret123' } }),
      ),
    );

  it('A-10 a listed email (any case) registers as admin; the role is in the user record and the token', async () => {
    const boss = await register('boss@example.com');
    expect(boss.user.role).toBe('admin');
    expect(claims(boss.token)).toMatchObject({ sub: boss.user.id, role: 'admin' });
    expect((await t.storage.users.findById(boss.user.id))?.role).toBe('admin');
    const me = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${boss.token}` },
    });
    expect((json(me) as { user: { role: string } }).user.role).toBe('admin');
  });

  it('A-10 anyone else registers as user', async () => {
    const plain = await register('plain@example.com');
    expect(plain.user.role).toBe('user');
    expect(claims(plain.token).role).toBe('user');
  });

  it('A-10 an email added to the list later is promoted at the next login', async () => {
    const s = await register('second@example.com');
    await t.storage.users.update(s.user.id, { role: 'user' }); // as before the email was listed
    const again = await login('second@example.com');
    expect(again.user.role).toBe('admin');
    expect(claims(again.token).role).toBe('admin');
    expect((await t.storage.users.findById(s.user.id))?.role).toBe('admin');
  });

  it('A-10 an email removed from the list is demoted at the next login', async () => {
    const s = await register('former@example.com');
    await t.storage.users.update(s.user.id, { role: 'admin' }); // as while it was listed
    const again = await login('former@example.com');
    expect(again.user.role).toBe('user');
    expect(claims(again.token).role).toBe('user');
    expect((await t.storage.users.findById(s.user.id))?.role).toBe('user');
  });
});
