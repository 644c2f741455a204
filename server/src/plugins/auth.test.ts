import { ApiErrorSchema, AuthSessionSchema, type AuthSession } from '@alma/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../test-support/app.ts';

const TTL_S = 60;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ACCESS_TOKEN_TTL_S: String(TTL_S), AUTH_RATE_LIMIT_MAX: '10000' });
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

let accounts = 0;
async function newSession(): Promise<AuthSession> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ email: `bearer${++accounts}@example.com` }),
  });
  expect(res.statusCode).toBe(201);
  return AuthSessionSchema.parse(json(res));
}
const me = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/auth/me', headers: authorization ? { authorization } : {} });
const codeOf = (res: { body: string }) => ApiErrorSchema.parse(json(res)).error.code;

// A verified token is remembered (issue 14: no HMAC per request); these say what stays checked.
describe('Bearer access tokens on REST', () => {
  it('a token answers on every request until it expires, then token_expired — remembered or not', async () => {
    const session = await newSession();
    expect((await me(`Bearer ${session.token}`)).statusCode).toBe(200);
    expect((await me(`bearer ${session.token}`)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (TTL_S + 1) * 1000 });
    const late = await me(`Bearer ${session.token}`);
    expect(late.statusCode).toBe(401);
    expect(codeOf(late)).toBe('token_expired');
  });

  it('a remembered token whose session ended is refused on the next request (A-12)', async () => {
    const session = await newSession();
    expect((await me(`Bearer ${session.token}`)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${session.token}` },
      payload: { refreshToken: session.refreshToken },
    });
    expect(out.statusCode).toBe(200);
    const after = await me(`Bearer ${session.token}`);
    expect(after.statusCode).toBe(401);
    expect(codeOf(after)).toBe('signed_out');
  });

  it.each([
    ['no header', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['no token', 'Bearer '],
    ['two tokens', 'Bearer a b'],
    ['a token signed with another key', 'Bearer FORGED'],
    ['a token cut short', 'Bearer CUT'],
  ])('%s: 401 unauthorized', async (_name, header) => {
    const session = await newSession();
    const [head, payload] = session.token.split('.');
    const authorization = header
      ?.replace('FORGED', `${head}.${payload}.${'A'.repeat(43)}`)
      .replace('CUT', session.token.slice(0, -5));
    const res = await me(authorization);
    expect(res.statusCode).toBe(401);
    expect(codeOf(res)).toBe('unauthorized');
  });
});
