import { AuthSessionSchema, ApiErrorSchema } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../../test-support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '1000' });
});
afterAll(async () => t.close());

const register = (body: Record<string, unknown>, language = 'es', url = '/auth/register') =>
  t.app.inject({ method: 'POST', url, headers: { 'accept-language': language }, payload: body });

const good = (email: string) => registrationBody({ email });

describe('POST /auth/register', () => {
  it('A-1 creates the account and returns tokens and the user, never the hash', async () => {
    const res = await register(good('ana@example.com'));
    expect(res.statusCode).toBe(201);
    const body = AuthSessionSchema.parse(json(res));
    expect(body.user).toMatchObject({
      name: 'Ana López',
      email: 'ana@example.com',
      plan: 'free',
      language: 'es',
      theme: 'dark',
    });
    expect(res.body).not.toContain('passwordHash');
    expect(res.body).not.toContain('argon2');
  });

  it('A-5 answers under /api/auth too', async () => {
    const res = await register(good('api-alias@example.com'), 'en', '/api/auth/register');
    expect(res.statusCode).toBe(201);
  });

  it('A-1 lower-cases and trims the email; a taken email answers 409 email_taken', async () => {
    expect((await register(good('  Dup@Example.com '))).statusCode).toBe(201);
    const again = await register(good('dup@example.com'), 'en');
    expect(again.statusCode).toBe(409);
    expect(ApiErrorSchema.parse(json(again)).error).toMatchObject({
      code: 'email_taken',
      message: 'An account with this email already exists.',
    });
  });

  it.each([
    [
      'es',
      { name: 'A', email: 'x', password: 'abc', plan: 'free' },
      ['name:nameRequired', 'email:emailNotValid', 'password:passwordLength'],
    ],
    [
      'en',
      { name: 'Bob', email: 'bob@example.com', password: 'alllowercase1', plan: 'free' },
      ['password:passwordComplexity'],
    ],
    [
      'en',
      { name: 'Bob', email: 'bob@example.com', password: 'Secret123', plan: 'pro' },
      ['plan:planNotAvailable'],
    ],
    [
      'en',
      { ...registrationBody({ name: 'Bob', email: 'bob@example.com' }), confirmPassword: 'Other123' },
      ['confirmPassword:passwordMismatch'],
    ],
    [
      'en',
      { ...registrationBody({ name: 'Bob', email: 'bob@example.com' }), terms: false },
      ['terms:termsRequired'],
    ],
    [
      'en',
      // Both left out: the account must not be created (issue 11).
      { name: 'Bob', email: 'bob@example.com', password: 'Secret123', plan: 'free' },
      ['confirmPassword:confirmPasswordRequired', 'terms:termsRequired'],
    ],
    [
      'es',
      { ...registrationBody({ name: 'Bob', email: 'bob@example.com' }), confirmPassword: '' },
      ['confirmPassword:confirmPasswordRequired'],
    ],
    ['en', {}, ['name:nameRequired', 'email:emailRequired', 'password:passwordRequired']],
  ])(
    'A-1 rejects bad input (%s) with the spec field codes and stores nothing',
    async (language, body, expected) => {
      const res = await register(body, language);
      expect(res.statusCode).toBe(400);
      const { error } = ApiErrorSchema.parse(json(res));
      expect(error.code).toBe('validation_failed');
      expect(error.errors?.map((e) => `${e.field}:${e.code}`)).toEqual(expect.arrayContaining(expected));
      if (language === 'es') expect(error.message).toBe('Revisa los datos e inténtalo de nuevo.');
      else expect(error.message).toBe('Please check your input and try again.');
      expect(await t.storage.users.findByEmail('bob@example.com')).toBeNull();
    },
  );

  it('gives the field texts of the spec in English and Spanish', async () => {
    const en = ApiErrorSchema.parse(
      json(
        await register(
          { ...registrationBody({ name: 'Bob', email: 'bob@example.com' }), terms: false },
          'en',
        ),
      ),
    );
    expect(en.error.errors?.[0]?.message).toBe('You must accept the terms and conditions');
    const es = ApiErrorSchema.parse(
      json(
        await register(
          { ...registrationBody({ name: 'Bob', email: 'bob@example.com' }), terms: false },
          'es',
        ),
      ),
    );
    expect(es.error.errors?.[0]?.message).toBe('Debes aceptar los términos y condiciones');
  });

  it('answers malformed JSON with invalid_payload, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(json(res)).error.code).toBe('invalid_payload');
  });
});

describe('login, me, refresh, logout', () => {
  let session: { token: string; refreshToken: string };
  beforeAll(async () => {
    await register(good('login@example.com'));
  });

  it('A-2 logs in with the right password only, with one answer for both failures', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'LOGIN@example.com', password: 'Secret123' },
    });
    expect(ok.statusCode).toBe(200);
    session = AuthSessionSchema.parse(json(ok));
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'login@example.com', password: 'Wrong123' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'nobody@example.com', password: 'Wrong123' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(json(wrong)).toEqual(json(unknown));
  });

  it('GET /auth/me needs a valid bearer token', async () => {
    const me = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(json(me)).toMatchObject({ success: true, user: { email: 'login@example.com' } });
    const none = await t.app.inject({ method: 'GET', url: '/auth/me' });
    expect(none.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${session.token}x` },
    });
    expect(ApiErrorSchema.parse(json(forged)).error.code).toBe('unauthorized');
  });

  // Rotation, its grace window and reuse: sessions.test.ts.
  it('A-4 logout revokes the refresh token', async () => {
    const login = AuthSessionSchema.parse(
      json(
        await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'login@example.com', password: 'Secret123' },
        }),
      ),
    );
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${login.token}` },
      payload: { refreshToken: login.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh',
      payload: { refreshToken: login.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
  });
});

describe('A-5 rate limit on auth routes', () => {
  it('answers 429 rate_limited with a retry time past the limit', async () => {
    const limited = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '3' });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'a@b.co', password: 'Wrong123' },
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const blocked = await attempt();
      expect(blocked.statusCode).toBe(429);
      const { error } = ApiErrorSchema.parse(json(blocked));
      expect(error.code).toBe('rate_limited');
      expect(error.retryAfterMs).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
