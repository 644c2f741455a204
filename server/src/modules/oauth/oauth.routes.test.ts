import { AuthSessionSchema, UserSchema } from '@alma/protocol';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../config.ts';
import { buildTestApp, type TestApp, registrationBody } from '../../test-support/app.ts';
import { s256 } from './oauth.state.ts';
import { startTestProvider, type ProviderAccount, type TestProvider } from './test-provider.ts';

/**
 * Sign-in through Google and GitHub end to end (SPEC.md O-1…O-5): Alma listens on loopback, the
 * providers are real OAuth 2.0 servers on loopback (test-provider.ts), and a small "browser"
 * follows every redirect with real HTTP, keeping Alma's cookie like a browser would.
 */

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

interface Hop {
  status: number;
  location: URL | null;
}

/** Follows nothing by itself; keeps the cookies Alma sets and sends them back only to Alma. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly appOrigin: string,
    private readonly language = 'es-ES,es;q=0.9',
  ) {}

  async get(target: URL | string): Promise<Hop> {
    const url = new URL(target);
    const toApp = url.origin === this.appOrigin;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      redirect: 'manual',
      headers: {
        accept: 'text/html',
        'accept-language': this.language,
        ...(toApp && cookie ? { cookie } : {}),
      },
    });
    await res.arrayBuffer();
    if (toApp) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const [name = '', value = ''] = pair.split('=');
        this.cookies.set(name, value);
      }
    }
    const location = res.headers.get('location');
    return { status: res.status, location: location ? new URL(location, url) : null };
  }
}

let app: TestApp;
let appUrl: string;
let google: TestProvider;
let github: TestProvider;

beforeAll(async () => {
  [google, github] = await Promise.all([startTestProvider('google'), startTestProvider('github')]);
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = await buildTestApp({
    PORT: String(port),
    APP_URL: appUrl,
    AUTH_RATE_LIMIT_MAX: '1000',
    ADMIN_EMAILS: 'boss@example.com',
    ...google.env(appUrl),
    ...github.env(appUrl),
  });
  await app.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await Promise.all([google.close(), github.close()]);
});

let n = 0;
/** A fresh person at the provider, with a unique id and email. */
function person(overrides: Partial<ProviderAccount> = {}): ProviderAccount {
  n += 1;
  return {
    subject: String(1000 + n),
    email: `person${n}@example.com`,
    emailVerified: true,
    name: `Person ${n}`,
    ...overrides,
  };
}

beforeEach(() => {
  google.account = person();
  github.account = person();
});

interface SignIn {
  authorize: URL;
  callback: URL;
  final: URL;
  params: Record<string, string>;
}

/** Alma → provider (auto-approves) → Alma's callback → the client's /auth/callback page. */
async function signIn(
  provider: 'google' | 'github',
  opts: { browser?: Browser; prefix?: string; tamper?: (authorize: URL) => void } = {},
): Promise<SignIn> {
  const browser = opts.browser ?? new Browser(new URL(appUrl).origin);
  const start = await browser.get(`${appUrl}${opts.prefix ?? ''}/auth/${provider}`);
  expect(start.status).toBe(302);
  const authorize = start.location!;
  opts.tamper?.(authorize);
  const atProvider = await browser.get(authorize);
  expect(atProvider.status).toBe(302);
  const callback = atProvider.location!;
  expect(callback.origin + callback.pathname).toBe(`${appUrl}/auth/${provider}/callback`);
  const back = await browser.get(callback);
  expect(back.status).toBe(302);
  const final = back.location!;
  expect(final.origin).toBe(appUrl);
  expect(final.pathname).toBe('/auth/callback');
  return { authorize, callback, final, params: Object.fromEntries(final.searchParams) };
}

async function me(token: string) {
  const res = await fetch(`${appUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return z.object({ user: UserSchema }).parse(await res.json()).user;
}

const post = (path: string, body: unknown) =>
  fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify(body),
  });

async function registerWithPassword(email: string) {
  const res = await post('/auth/register', registrationBody({ name: 'Local User', email }));
  expect(res.status).toBe(201);
  return AuthSessionSchema.parse(await res.json());
}

const STATE_REFUSED = 'el intento de acceso caducó o ya se usó. Vuelve a empezar desde la página de acceso.';
/** Failed on the state check, before any call to the provider. */
const stateRefused = (hop: Hop) => {
  expect(hop.status).toBe(302);
  expect(Object.fromEntries(hop.location!.searchParams)).toEqual({
    error: 'oauth_failed',
    error_description: STATE_REFUSED,
    provider: hop.location!.searchParams.get('provider'),
  });
};

function expectFailure(result: SignIn, provider: string) {
  expect(result.params).toMatchObject({ error: 'oauth_failed', provider });
  expect(result.params.token).toBeUndefined();
  expect(result.params.error_description).toBeTruthy();
}

describe('O-1 providers', () => {
  it('O-1 GET /auth/providers (and /api/auth/providers) reports both providers configured', async () => {
    for (const path of ['/auth/providers', '/api/auth/providers']) {
      const res = await fetch(`${appUrl}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ google: true, github: true });
    }
  });
});

describe('O-2 start: redirect to the provider', () => {
  it('O-2 sends client_id, the exact redirect_uri, scope, state and an S256 challenge, and binds the browser', async () => {
    const browser = new Browser(appUrl);
    const res = await browser.get(`${appUrl}/auth/google`);
    expect(res.status).toBe(302);
    const url = res.location!;
    expect(url.origin + url.pathname).toBe(`${google.url}/authorize`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      response_type: 'code',
      client_id: google.clientId,
      redirect_uri: `${appUrl}/auth/google/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(q.state).toMatch(/^[\w-]{43}$/);
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(browser.cookies.get('alma_oauth')).toMatch(/^[\w-]{43}$/);

    const gh = (await browser.get(`${appUrl}/auth/github`)).location!;
    expect(gh.origin + gh.pathname).toBe(`${github.url}/login/oauth/authorize`);
    expect(gh.searchParams.get('scope')).toBe('read:user user:email');
    expect(gh.searchParams.get('redirect_uri')).toBe(`${appUrl}/auth/github/callback`);
    expect(gh.searchParams.get('state')).not.toBe(q.state);
  });

  it('O-2 the binding cookie is httpOnly and SameSite=Lax', async () => {
    const res = await fetch(`${appUrl}/auth/google`, { redirect: 'manual' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('alma_oauth='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=600/);
  });
});

describe('O-3 / O-4 Google', () => {
  it('O-3 a new person gets an account: token and refreshToken work, isNewUser=true', async () => {
    google.account = person({ name: 'Ana Google' });
    const { params } = await signIn('google');
    expect(params).toMatchObject({ provider: 'google', isNewUser: 'true' });
    const user = await me(params.token!);
    expect(user).toMatchObject({
      name: 'Ana Google',
      email: google.account.email,
      emailVerified: true,
      plan: 'free',
      role: 'user',
      language: 'es',
    });
    const identities = await app.storage.identities.listForUser(user.id);
    expect(identities).toMatchObject([
      { provider: 'google', subject: google.account.subject, userId: user.id },
    ]);
    const refreshed = await post('/auth/refresh', { refreshToken: params.refreshToken });
    expect(refreshed.status).toBe(200);
  });

  it('O-3 a returning person signs in to the same account, isNewUser=false (also under /api/auth)', async () => {
    const first = await signIn('google');
    const again = await signIn('google', { prefix: '/api' });
    expect(again.params.isNewUser).toBe('false');
    expect((await me(again.params.token!)).id).toBe((await me(first.params.token!)).id);
  });

  it('O-3 the final redirect is not cacheable', async () => {
    const browser = new Browser(appUrl);
    const start = await browser.get(`${appUrl}/auth/google`);
    const atProvider = await browser.get(start.location!);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(atProvider.location!, { redirect: 'manual', headers: { cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('O-4 links to an existing password account with the same verified email; the password keeps working', async () => {
    const email = `linked-${n}@example.com`;
    const local = await registerWithPassword(email);
    await app.storage.users.update(local.user.id, { emailVerified: true });
    google.account = person({ email: email.toUpperCase() });
    const { params } = await signIn('google');
    expect(params.isNewUser).toBe('false');
    expect((await me(params.token!)).id).toBe(local.user.id);
    expect((await post('/auth/login', { email, password: 'Secret123' })).status).toBe(200);
    expect(await app.storage.identities.listForUser(local.user.id)).toHaveLength(1);
  });

  it('O-4 linking to an account whose email was never verified voids its password and refresh tokens', async () => {
    const email = `unproven-${n}@example.com`;
    const local = await registerWithPassword(email);
    google.account = person({ email });
    const { params } = await signIn('google');
    expect(params.isNewUser).toBe('false');
    const user = await me(params.token!);
    expect(user).toMatchObject({ id: local.user.id, emailVerified: true });
    expect((await post('/auth/login', { email, password: 'Secret123' })).status).toBe(401);
    expect((await post('/auth/refresh', { refreshToken: local.refreshToken })).status).toBe(401);
  });

  it('O-4 an email the provider does not vouch for neither links nor creates an account', async () => {
    const email = `squatted-${n}@example.com`;
    const local = await registerWithPassword(email);
    google.account = person({ email, emailVerified: false });
    const result = await signIn('google');
    expectFailure(result, 'google');
    expect(result.params.error_description).toBe(
      'tu email en Google no está verificado. Verifícalo en Google o entra con tu email y contraseña.',
    );
    expect(await app.storage.identities.listForUser(local.user.id)).toEqual([]);
    expect((await post('/auth/login', { email, password: 'Secret123' })).status).toBe(200);

    google.account = person({ emailVerified: false });
    expectFailure(await signIn('google'), 'google');
    expect(await app.storage.users.findByEmail(google.account.email!)).toBeNull();
  });

  it('O-4 a provider account without an email is refused', async () => {
    google.account = person({ email: null });
    const result = await signIn('google');
    expectFailure(result, 'google');
    expect(await app.storage.identities.find('google', google.account.subject)).toBeNull();
  });

  it('O-4 an email listed in ADMIN_EMAILS gets the admin role on creation', async () => {
    google.account = person({ email: 'Boss@Example.com' });
    const { params } = await signIn('google');
    expect(await me(params.token!)).toMatchObject({ email: 'boss@example.com', role: 'admin' });
  });

  it('O-4 a second provider with the same verified email signs in to the same account', async () => {
    const email = `both-${n}@example.com`;
    google.account = person({ email });
    github.account = person({ email, name: null, login: 'octo-both' });
    const viaGoogle = await signIn('google');
    const viaGitHub = await signIn('github');
    expect(viaGitHub.params.isNewUser).toBe('false');
    const user = await me(viaGitHub.params.token!);
    expect(user.id).toBe((await me(viaGoogle.params.token!)).id);
    const providers = (await app.storage.identities.listForUser(user.id)).map((i) => i.provider).sort();
    expect(providers).toEqual(['github', 'google']);
  });
});

describe('O-2 / O-5 failures end on the callback page', () => {
  it('O-2 an unknown state is refused', async () => {
    const browser = new Browser(appUrl);
    await browser.get(`${appUrl}/auth/google`);
    stateRefused(await browser.get(`${appUrl}/auth/google/callback?code=abc&state=${'x'.repeat(43)}`));
    stateRefused(await browser.get(`${appUrl}/auth/google/callback?code=abc`));
  });

  it('O-2 a state works once: replaying the callback URL fails and issues no token', async () => {
    const browser = new Browser(appUrl);
    const first = await signIn('google', { browser });
    expect(first.params.token).toBeTruthy();
    const tokenRequests = google.tokenRequests.length;
    stateRefused(await browser.get(first.callback));
    expect(google.tokenRequests).toHaveLength(tokenRequests); // refused before reaching the provider
  });

  it("O-2 a callback URL carried to another browser (login CSRF) is refused, and spends the attacker's state", async () => {
    const attacker = new Browser(appUrl);
    /** The attacker approves at the provider and stops before the callback. */
    const attackerCallback = async () => {
      const start = await attacker.get(`${appUrl}/auth/google`);
      return (await attacker.get(start.location!)).location!;
    };
    const victim = new Browser(appUrl);
    await victim.get(`${appUrl}/auth/github`); // the victim has a binding cookie of its own
    stateRefused(await victim.get(await attackerCallback()));
    stateRefused(await new Browser(appUrl).get(await attackerCallback())); // no cookie at all
    const spent = await attackerCallback();
    stateRefused(await victim.get(spent));
    stateRefused(await attacker.get(spent));
  });

  it('O-2 a state started for one provider does not finish another', async () => {
    const browser = new Browser(appUrl);
    const start = await browser.get(`${appUrl}/auth/google`);
    const state = start.location!.searchParams.get('state')!;
    stateRefused(await browser.get(`${appUrl}/auth/github/callback?code=abc&state=${state}`));
  });

  it('O-5 the person declining at the provider ends in oauth_failed with a localized description', async () => {
    google.denyNext = true;
    const result = await signIn('google');
    expectFailure(result, 'google');
    expect(result.callback.searchParams.get('error')).toBe('access_denied');
    expect(result.params.error_description).toBe(
      'Google no autorizó el acceso. Si fue un error, vuelve a intentarlo.',
    );

    google.denyNext = true;
    const english = await signIn('google', { browser: new Browser(appUrl, 'en-US,en;q=0.9') });
    expect(english.params.error_description).toBe(
      'Google did not authorize the sign-in. If that was a mistake, please try again.',
    );
  });

  it('O-5 a failing token endpoint ends in oauth_failed and creates nobody', async () => {
    google.failTokenNext = true;
    const result = await signIn('google');
    expectFailure(result, 'google');
    expect(await app.storage.users.findByEmail(google.account.email!)).toBeNull();
  });

  it('O-2 PKCE: the verifier sent to the token endpoint matches the challenge, with the client credentials', async () => {
    const { authorize } = await signIn('google');
    const request = google.tokenRequests.at(-1)!;
    expect(request).toMatchObject({
      grant_type: 'authorization_code',
      client_id: google.clientId,
      client_secret: google.clientSecret,
      redirect_uri: `${appUrl}/auth/google/callback`,
    });
    expect(s256(request.code_verifier!)).toBe(authorize.searchParams.get('code_challenge'));
  });

  it('O-2 PKCE is checked: a code bound to another challenge is refused by the provider', async () => {
    const result = await signIn('google', {
      tamper: (authorize) => authorize.searchParams.set('code_challenge', s256('a'.repeat(43))),
    });
    expectFailure(result, 'google');
    expect(result.params.error_description).toBe('Google no aceptó el código de acceso. Inténtalo de nuevo.');
    expect(await app.storage.users.findByEmail(google.account.email!)).toBeNull();
  });

  it('O-3 odd callback requests still end on the callback page, never a 500', async () => {
    const browser = new Browser(appUrl);
    for (const query of [
      '',
      '?state=a&state=b',
      '?error=server_error',
      `?code=${'c'.repeat(5000)}&state=x`,
    ]) {
      const res = await browser.get(`${appUrl}/auth/google/callback${query}`);
      expect(res.status).toBe(302);
      expect(res.location!.pathname).toBe('/auth/callback');
      expect(res.location!.searchParams.get('error')).toBe('oauth_failed');
    }
  });
});

describe('O-3 / O-4 GitHub', () => {
  it('O-3 a new person signs in with the primary verified email; name falls back to the login', async () => {
    github.account = person({ name: null, login: 'octocat' });
    const { params } = await signIn('github');
    expect(params).toMatchObject({ provider: 'github', isNewUser: 'true' });
    expect(await me(params.token!)).toMatchObject({
      name: 'octocat',
      email: github.account.email,
      emailVerified: true,
    });
    expect(await app.storage.identities.find('github', github.account.subject)).not.toBeNull();

    const again = await signIn('github');
    expect(again.params.isNewUser).toBe('false');
  });

  it('O-4 an unverified primary email is refused, though another address is verified', async () => {
    github.account = person({ emailVerified: false });
    expectFailure(await signIn('github'), 'github');
    expect(await app.storage.identities.find('github', github.account.subject)).toBeNull();
  });

  it("O-5 GitHub's token errors (a 200 with an error field) end in oauth_failed", async () => {
    const result = await signIn('github', {
      tamper: (authorize) => authorize.searchParams.set('code_challenge', s256('b'.repeat(43))),
    });
    expectFailure(result, 'github');
    github.failTokenNext = true;
    expectFailure(await signIn('github'), 'github');
  });

  it('O-2 GitHub receives the verifier and client credentials too', async () => {
    const { authorize } = await signIn('github');
    const request = github.tokenRequests.at(-1)!;
    expect(request).toMatchObject({ client_id: github.clientId, client_secret: github.clientSecret });
    expect(s256(request.code_verifier!)).toBe(authorize.searchParams.get('code_challenge'));
  });
});

describe('O-1 without configuration', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '1000' });
  });
  afterAll(async () => bare.close());

  it('O-1 /auth/providers reports both false', async () => {
    const res = await bare.app.inject({ method: 'GET', url: '/api/auth/providers' });
    expect(res.json()).toEqual({ google: false, github: false });
  });

  it.each(['google', 'github'])(
    'O-1 /auth/%s redirects to the callback page with oauth_not_configured',
    async (p) => {
      for (const [url, language, text] of [
        [`/auth/${p}`, 'es', 'El acceso con este proveedor no está configurado en este servidor.'],
        [`/api/auth/${p}`, 'en', 'Signing in with this provider is not configured on this server.'],
        [
          `/auth/${p}/callback?code=x&state=y`,
          'en',
          'Signing in with this provider is not configured on this server.',
        ],
      ] as const) {
        const res = await bare.app.inject({ method: 'GET', url, headers: { 'accept-language': language } });
        expect(res.statusCode).toBe(302);
        const location = new URL(String(res.headers.location), 'http://app');
        expect(location.pathname).toBe('/auth/callback');
        expect(Object.fromEntries(location.searchParams)).toEqual({
          error: 'oauth_not_configured',
          error_description: text,
          provider: p,
        });
      }
    },
  );

  it('O-1 a provider with an id but no secret (or the reverse) stops start-up with a clear message', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR: join(tmpdir(), 'alma-oauth-config'), ...env });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ GOOGLE_CLIENT_SECRET: 'x' })).toEqual([
      'GOOGLE_CLIENT_ID="": is required when GOOGLE_CLIENT_SECRET is set',
    ]);
    expect(problems({ GITHUB_CLIENT_ID: 'x' })).toEqual([
      'GITHUB_CLIENT_SECRET="": is required when GITHUB_CLIENT_ID is set',
    ]);
    expect(problems({ GITHUB_TOKEN_URL: 'ftp://x' })).toEqual([
      'GITHUB_TOKEN_URL="ftp://x": must be an http(s) URL',
    ]);
  });
});
