import { ClientEvent, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider, type TestProvider } from '../../server/src/modules/oauth/test-provider.ts';
import { apiClient, registerUser } from '../fixtures/api.ts';
import { startCluster, type TestCluster } from '../fixtures/cluster.ts';
import { socketClients, type RecordedEvent, type TestClient } from '../fixtures/socket.ts';

/**
 * Issue 15, SPEC.md M-1…: two real Alma processes sharing one embedded database file and one
 * Redis, each on its own port, with real socket.io clients. Kept to one cluster for the whole
 * file: starting processes is what costs here.
 */
let cluster: TestCluster;
let a: string;
let b: string;
let google!: TestProvider;
/** Per address and route, per minute; counted in Redis once for both instances (M-2). */
const AUTH_LIMIT = 4;
const clients = socketClients();
const { connect } = clients;

beforeAll(async () => {
  google = await startTestProvider('google');
  const provider = google;
  // The provider redirects back to APP_URL: instance B, while flows start on A (M-3).
  cluster = await startCluster(2, (urls) => ({
    REPLY_TOKEN_DELAY_MS: '5',
    AUTH_RATE_LIMIT_MAX: String(AUTH_LIMIT),
    // M-2 lockout: a pair is locked after 2 failures, below the rate limit; each test's requests
    // come from their own address (X-Forwarded-For) so the two counts stay apart.
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '2',
    TRUST_PROXY: 'true',
    SPEECH_ENGINE: 'none',
    APP_URL: urls[1] ?? '',
    ...provider.env(urls[1] ?? ''),
  }));
  [a, b] = cluster.instances.map((i) => i.url) as [string, string];
}, 120_000);
afterAll(async () => {
  clients.closeAll();
  await cluster?.stop();
  await google?.close();
});

const of = (events: RecordedEvent[], event: string) => events.filter((e) => e.event === event);

describe('M-1 rooms span instances', () => {
  it('M-1 a user with sockets on two instances gets every multi-tab event on both', async () => {
    const user: AuthSession = await registerUser(a, { name: 'Dos Pestañas' });
    const [onA, onB] = await Promise.all([connect(a, user.token), connect(b, user.token)]);
    const both = [onA, onB];

    // session:updated `created`, from a REST call on A.
    const { session } = await apiClient(a, { token: user.token })(routes.chat.createSession, {
      body: { title: 'Entre instancias' },
    });
    const created = (c: TestClient) =>
      of(c.events, ServerEvent.sessionUpdated).some(
        (e) =>
          e.payload.kind === 'created' &&
          (e.payload.session as { sessionId: string }).sessionId === session.sessionId,
      );
    await Promise.all(both.map((c) => c.waitFor(() => created(c))));

    // The tab on B watches the session; the tab on A sends in it: B gets the message (the sender
    // is not echoed), the whole reply stream in seq order, and usage:updated; A gets its reply.
    expect((await onB.request(ClientEvent.sessionWatch, { sessionId: session.sessionId })).ok).toBe(true);
    const ack = await onA.request(ClientEvent.chatSend, {
      clientMessageId: 'many-1',
      sessionId: session.sessionId,
      message: 'Hola desde la pestaña A',
    });
    if (!ack.ok) throw new Error(JSON.stringify(ack.error));
    const { replyId } = ack.data;
    await Promise.all(both.map((c) => c.waitForReplyEnd(replyId)));
    await Promise.all(both.map((c) => c.waitFor((e) => of(e, ServerEvent.usageUpdated).length > 0)));
    expect(of(onB.events, ServerEvent.chatMessage).map((e) => e.payload.message)).toMatchObject([
      { clientMessageId: 'many-1', content: 'Hola desde la pestaña A' },
    ]);
    expect(of(onA.events, ServerEvent.chatMessage)).toEqual([]);
    const streamA = onA.replyEvents(replyId);
    const streamB = onB.replyEvents(replyId);
    expect(streamB.map((e) => e.event)).toEqual(streamA.map((e) => e.event));
    expect(streamB.map((e) => e.payload.seq)).toEqual(streamB.map((_, i) => i));
    expect(streamB.at(-1)?.event).toBe(ServerEvent.chatReply);
    expect(of(streamB, ServerEvent.chatDelta).length).toBeGreaterThan(0);

    // renamed and deleted, from REST calls on B, reach the tab on A.
    const onB_api = apiClient(b, { token: user.token });
    await onB_api(routes.chat.renameSession, {
      params: { id: session.sessionId },
      body: { title: 'Renombrada' },
    });
    await onB_api(routes.chat.deleteSession, { params: { id: session.sessionId } });
    for (const c of both) {
      await c.waitFor((e) =>
        of(e, ServerEvent.sessionUpdated).some(
          (x) => x.payload.kind === 'deleted' && x.payload.sessionId === session.sessionId,
        ),
      );
      const kinds = of(c.events, ServerEvent.sessionUpdated)
        .filter(
          (e) =>
            e.payload.sessionId === session.sessionId ||
            (e.payload.session as { sessionId?: string } | undefined)?.sessionId === session.sessionId,
        )
        .map((e) => e.payload.kind);
      expect(kinds).toEqual(expect.arrayContaining(['created', 'renamed', 'deleted']));
      expect(c.problems).toEqual([]);
    }
  });
});

describe('M-2 limits count across instances', () => {
  it('M-2 the auth rate limit is reached at the same count as with one instance, wherever requests land', async () => {
    let n = 0;
    const login = async (url: string) => {
      n += 1;
      const res = await fetch(`${url}${routes.auth.login.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': 'en' },
        // A different unknown account each time: the per-account lockout is not what counts here.
        body: JSON.stringify({ email: `nobody-${n}@example.com`, password: 'Wrong-password-1' }),
      });
      return { status: res.status, body: (await res.json()) as { error?: { code?: string } } };
    };
    // Alternating A, B, A, B: every one is counted once, in one window.
    for (let i = 0; i < AUTH_LIMIT; i++) expect((await login(i % 2 === 0 ? a : b)).status).toBe(401);
    for (const url of [a, b]) {
      const refused = await login(url);
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe('rate_limited');
    }
  });
});

describe('M-2 login lockout counts across instances', () => {
  it('M-2 A-8 failures on A and on B lock the account for that address on both; the right password is refused there', async () => {
    const user = await registerUser(a, { name: 'Bloqueo Compartido' });
    const login = async (url: string, password: string) => {
      const res = await fetch(`${url}${routes.auth.login.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.15.0.7' },
        body: JSON.stringify({ email: user.user.email, password }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { error?: { code?: string; retryAfterMs?: number } },
      };
    };
    expect((await login(a, 'Wrong-password-1')).status).toBe(401);
    expect((await login(b, 'Wrong-password-2')).status).toBe(401);
    // One failure each: an instance counting alone would let this through (SPEC.md A-8, M-2).
    for (const url of [a, b]) {
      const locked = await login(url, 'Secret123');
      expect(locked.status).toBe(429);
      expect(locked.body.error?.code).toBe('rate_limited');
    }
  });
});

describe('M-3 sign-in through a provider across instances', () => {
  it('M-3 an OAuth flow started on A completes on B (state and PKCE verifier in Redis)', async () => {
    google.account = { subject: 'g-many-1', email: 'many@example.com', emailVerified: true, name: 'Muchas' };
    const cookies = new Map<string, string>();
    // A browser: cookies are per host, not per port, so the binding cookie A sets goes to B too.
    const get = async (url: URL | string) => {
      const target = new URL(url);
      const toAlma = target.origin === a || target.origin === b;
      const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(target, { redirect: 'manual', headers: toAlma && cookie ? { cookie } : {} });
      await res.arrayBuffer();
      if (toAlma) {
        for (const line of res.headers.getSetCookie()) {
          const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
          cookies.set(name, value);
        }
      }
      expect(res.status).toBe(302);
      return new URL(res.headers.get('location') ?? '', target);
    };
    const authorize = await get(`${a}/auth/google`);
    const callback = await get(authorize);
    expect(callback.origin).toBe(b);
    const final = await get(callback);
    const params = Object.fromEntries(final.searchParams);
    expect(params.error).toBeUndefined();
    const me = await apiClient(b, { token: params.token ?? '' })(routes.auth.me);
    expect(me.user.email).toBe('many@example.com');
    // The state was spent on B: replaying the callback on A is refused.
    const replay = Object.fromEntries((await get(callback.href.replace(b, a))).searchParams);
    expect(replay.error).toBe('oauth_failed');
  });
});

describe('A-12 M-1 revocation reaches sockets on every instance', () => {
  // Two users rather than two sign-ins of one: M-2 above used up this minute's logins. Which
  // sign-in's sockets a revocation ends is tested on one instance (tests/socket/revocation.test.ts).
  it('A-12 M-1 a logout on A closes the user’s socket on B with auth:revoked; another user’s socket on B stays', async () => {
    const user: AuthSession = await registerUser(a, { name: 'Cierre Remoto' });
    const other: AuthSession = await registerUser(b, { name: 'Sigue Conectada' });
    const [signedOut, stays] = await Promise.all([connect(b, user.token), connect(b, other.token)]);
    const closed = new Promise<string>((resolve) => signedOut.socket.once('disconnect', resolve));

    await apiClient(a, { token: user.token })(routes.auth.logout, {
      body: { refreshToken: user.refreshToken },
    });

    expect(await closed).toBe('io server disconnect');
    const told = of(signedOut.events, ServerEvent.authRevoked).map((e) => e.payload);
    expect(told.map((p) => p.code)).toEqual(['signed_out']);
    expect(told[0]?.message).toBe('Se ha cerrado tu sesión. Inicia sesión de nuevo para continuar.');
    expect(stays.socket.connected).toBe(true);
    expect(of(stays.events, ServerEvent.authRevoked)).toEqual([]);
  });
});
