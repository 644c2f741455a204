import { ApiErrorSchema, AuthSessionSchema, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../../test-support/app.ts';
import { captureMailer, manualClock } from '../../test-support/mail.ts';

const GRACE_MS = 10_000; // REFRESH_REUSE_GRACE_S's default

const time = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { clock: time.clock, mailer: captureMailer() });
});
afterAll(async () => t.close());

let accounts = 0;
async function newAccount(): Promise<{ email: string; first: AuthSession }> {
  const email = `sessions${++accounts}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ email }),
  });
  expect(res.statusCode).toBe(201);
  return { email, first: AuthSessionSchema.parse(json(res)) };
}
async function login(email: string, password = 'Secret123'): Promise<AuthSession> {
  const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return AuthSessionSchema.parse(json(res));
}
const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/auth/refresh', payload: { refreshToken } });
const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } });
const logout = (session: AuthSession, body: object = { refreshToken: session.refreshToken }) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/logout',
    headers: { authorization: `Bearer ${session.token}` },
    payload: body,
  });
const codeOf = (res: { body: string }) => ApiErrorSchema.parse(json(res)).error.code;

describe('A-3 refresh rotation with a grace window', () => {
  it('A-3 a refresh answers a new refresh token and a working access token', async () => {
    const { first } = await newAccount();
    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = AuthSessionSchema.parse(json(res));
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await me(next.token)).statusCode).toBe(200);
  });

  it('A-3 a token presented again within the grace window answers the same successor, and the sign-in lives on', async () => {
    const { first } = await newAccount();
    const rotated = AuthSessionSchema.parse(json(await refresh(first.refreshToken)));
    time.advance(GRACE_MS - 1000);
    const again = await refresh(first.refreshToken);
    expect(again.statusCode).toBe(200);
    const second = AuthSessionSchema.parse(json(again));
    expect(second.refreshToken).toBe(rotated.refreshToken);
    expect((await me(second.token)).statusCode).toBe(200);
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(200);
  });

  it('A-3 five concurrent refreshes with one token all answer the same successor, which then works', async () => {
    const { first } = await newAccount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(first.refreshToken)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const sessions = answers.map((a) => AuthSessionSchema.parse(json(a)));
    expect(new Set(sessions.map((s) => s.refreshToken)).size).toBe(1);
    for (const session of sessions) expect((await me(session.token)).statusCode).toBe(200);
    expect((await refresh(sessions[0]!.refreshToken)).statusCode).toBe(200);
  });

  it('A-3 follows a short chain: a token two rotations old, both within the window, answers the newest', async () => {
    const { first } = await newAccount();
    const second = AuthSessionSchema.parse(json(await refresh(first.refreshToken)));
    time.advance(1000);
    const third = AuthSessionSchema.parse(json(await refresh(second.refreshToken)));
    const late = AuthSessionSchema.parse(json(await refresh(first.refreshToken)));
    expect(late.refreshToken).toBe(third.refreshToken);
  });

  it('A-3 reuse after the grace window revokes the whole family, access tokens included (A-12)', async () => {
    const { first } = await newAccount();
    const rotated = AuthSessionSchema.parse(json(await refresh(first.refreshToken)));
    expect((await me(rotated.token)).statusCode).toBe(200);
    time.advance(GRACE_MS);
    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(codeOf(reuse)).toBe('refresh_invalid');
    // The thief's reuse also ended the legitimate newer tokens of the same sign-in.
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
    const refused = await me(rotated.token);
    expect(refused.statusCode).toBe(401);
    expect(codeOf(refused)).toBe('session_revoked');
  });

  it('A-3 a logged-out token gets no successor, even within the grace window', async () => {
    const { first } = await newAccount();
    const rotated = AuthSessionSchema.parse(json(await refresh(first.refreshToken)));
    expect((await logout(rotated)).statusCode).toBe(200);
    expect((await refresh(first.refreshToken)).statusCode).toBe(401);
    expect((await refresh(rotated.refreshToken)).statusCode).toBe(401);
  });
});

describe('A-12 revocation reaches access tokens at once', () => {
  it('A-4 A-12 after logout the access token of that sign-in answers 401 signed_out; other sign-ins keep working', async () => {
    const { email, first: phone } = await newAccount();
    const laptop = await login(email);
    // Both verified once, so the answers below come from the warm in-memory state.
    expect((await me(phone.token)).statusCode).toBe(200);
    expect((await me(laptop.token)).statusCode).toBe(200);
    expect((await logout(phone)).statusCode).toBe(200);
    const refused = await me(phone.token);
    expect(refused.statusCode).toBe(401);
    expect(codeOf(refused)).toBe('signed_out');
    expect((await me(laptop.token)).statusCode).toBe(200);
    expect((await refresh(laptop.refreshToken)).statusCode).toBe(200);
  });

  it('A-4 A-12 logout without a refresh token ends every sign-in of the user', async () => {
    const { email, first: phone } = await newAccount();
    const laptop = await login(email);
    expect((await me(laptop.token)).statusCode).toBe(200);
    expect((await logout(phone, {})).statusCode).toBe(200);
    for (const session of [phone, laptop]) {
      expect((await me(session.token)).statusCode).toBe(401);
      expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    }
  });

  it('A-6 A-12 a password change signs every other device out at once; the caller continues with its new session', async () => {
    const { email, first: caller } = await newAccount();
    const other = await login(email);
    expect((await me(other.token)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/auth/updatepassword',
      headers: { authorization: `Bearer ${caller.token}` },
      payload: { currentPassword: 'Secret123', newPassword: 'Changed123' },
    });
    expect(changed.statusCode).toBe(200);
    const renewed = AuthSessionSchema.parse(json(changed));

    const refused = await me(other.token);
    expect(refused.statusCode).toBe(401);
    expect(codeOf(refused)).toBe('password_changed');
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    // The caller's old tokens are replaced by the new session.
    expect((await me(caller.token)).statusCode).toBe(401);
    expect((await me(renewed.token)).statusCode).toBe(200);
    expect((await refresh(renewed.refreshToken)).statusCode).toBe(200);
    await login(email, 'Changed123');
  });

  it('A-12 a token signed without the session claims (sid, tv) is refused', async () => {
    const { first } = await newAccount();
    const legacy = t.app.jwt.sign({ sub: first.user.id, role: 'user' } as never);
    const res = await me(legacy);
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('unauthorized');
  });
});
