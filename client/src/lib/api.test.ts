import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, routes } from '@alma/protocol';
import { ApiError, createApiClient, filenameFrom, type ApiClientDeps } from './api.ts';
import { testUser as user } from '../test/fixtures.ts';

/*
 * The fetch used here is a test double at the network boundary (the only fake in these tests):
 * it answers queued responses or throws a TypeError the way a browser does when it cannot
 * reach the server. Everything above it — retry policy, refresh, parsing — is the real client.
 */

type Step = Response | 'network-down';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function fakeNetwork(steps: Step[]) {
  const requests: { url: string; init: RequestInit; at: number }[] = [];
  // The client always passes a string URL.
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    requests.push({ url, init: init ?? {}, at: Date.now() });
    const step = steps.shift();
    if (!step) throw new Error(`unexpected request ${url}`);
    if (step === 'network-down') return Promise.reject(new TypeError('Failed to fetch'));
    return Promise.resolve(step);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests };
}

function client(steps: Step[], overrides: Partial<ApiClientDeps> = {}) {
  const net = fakeNetwork(steps);
  const auth = { token: 'access-1' as string | null, refreshToken: 'refresh-1' as string | null };
  const onAuthLost = vi.fn(() => {
    auth.token = null;
    auth.refreshToken = null;
  });
  const onRefreshed = vi.fn((s: { token: string; refreshToken: string }) => {
    auth.token = s.token;
    auth.refreshToken = s.refreshToken;
  });
  const api = createApiClient({
    fetch: net.fetch,
    getToken: () => auth.token,
    getRefreshToken: () => auth.refreshToken,
    onRefreshed,
    onAuthLost,
    getLanguage: () => 'en',
    text: (key) =>
      ({
        'errors.connectionFailed': 'Cannot connect to server. Please check your internet connection.',
        'errors.requestFailed': 'Request error',
        'errors.timeout': 'Timed out',
      })[key],
    ...overrides,
  });
  return { api, net, auth, onAuthLost, onRefreshed };
}

const health = {
  status: 'online',
  version: '0.1.0',
  protocolVersion: 1,
  uptimeS: 1,
  database: { kind: 'embedded', ok: true },
  engines: { reply: 'builtin', speech: 'none', transcription: 'none' },
};

describe('call(route, input)', () => {
  it('sends the bearer token and Accept-Language, and parses the success body', async () => {
    const { api, net } = client([json(200, { success: true, user })]);
    const result = await api.call(routes.auth.me, {});
    expect(result.user.email).toBe('ana@example.com');
    const headers = net.requests[0]?.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer access-1');
    expect(headers['Accept-Language']).toBe('en');
    expect(net.requests[0]?.url).toBe('/auth/me');
  });

  it('P-1 sends its protocol version on every call; a refusal for it says which side is old', async () => {
    const onVersionMismatch = vi.fn();
    const message = 'The server is still on an older version than this page. Try again in a few minutes.';
    const { api, net } = client([json(503, { error: { code: 'server_too_old', message } })], {
      onVersionMismatch,
    });
    const error = await api.call(routes.auth.me, {}).catch((e: unknown) => e);
    expect((net.requests[0]?.init.headers as Record<string, string>)[PROTOCOL_VERSION_HEADER]).toBe(
      String(PROTOCOL_VERSION),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).displayMessage).toBe(message);
    expect(onVersionMismatch).toHaveBeenCalledWith('server_too_old');
  });

  it('fills path parameters and the query string', async () => {
    const { api, net } = client([
      json(200, { items: [], total: 0, page: 2, pageSize: 50, hasMore: false }),
      json(200, { success: true }),
    ]);
    await api.call(routes.chat.listMessages, { query: { sessionId: 's 1', page: 2, pageSize: 50 } });
    await api.call(routes.chat.deleteSession, { params: { id: 'a/b' } });
    expect(net.requests[0]?.url).toBe('/chat/messages?sessionId=s+1&page=2&pageSize=50');
    expect(net.requests[1]?.url).toBe('/chat/sessions/a%2Fb');
    expect(net.requests[1]?.init.method).toBe('DELETE');
  });

  it('does not send a bearer token on public routes', async () => {
    const { api, net } = client([json(200, health)]);
    await api.call(routes.health.health, {});
    expect((net.requests[0]?.init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('throws ApiError with code, status, message and field errors from the error body', async () => {
    const { api } = client([
      json(400, {
        error: {
          code: 'validation_failed',
          message: 'Please check your input and try again.',
          errors: [
            { field: 'email', code: 'emailInvalid', message: 'Please enter a valid email address' },
            { field: 'password', code: 'passwordLength', message: 'Password must be at least 6 characters' },
          ],
        },
      }),
    ]);
    const error = await api
      .call(routes.auth.login, { body: { email: 'x', password: 'y' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.code).toBe('validation_failed');
    expect(apiError.status).toBe(400);
    expect(apiError.fieldErrors).toHaveLength(2);
    // Spec §8: "field: message" pairs joined by commas.
    expect(apiError.displayMessage).toBe(
      'email: Please enter a valid email address, password: Password must be at least 6 characters',
    );
  });

  it('falls back to the generic request text when the error body is not the protocol shape', async () => {
    const { api } = client([new Response('<html>bad gateway</html>', { status: 502 })]);
    const error = (await api.call(routes.health.health, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('server_error');
    expect(error.message).toBe('Request error');
  });

  it('rejects a success body that does not match route.response', async () => {
    const { api } = client([json(200, { nope: true })]);
    const error = (await api.call(routes.health.health, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('invalid_response');
  });
});

describe('network retries (spec §7: 2 retries, 1 s then 2 s)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a network failure after 1 s and then 2 s, and succeeds', async () => {
    const { api, net } = client(['network-down', 'network-down', json(200, health)]);
    const pending = api.call(routes.health.health, {});
    await vi.advanceTimersByTimeAsync(0);
    expect(net.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(net.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(net.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(net.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(net.requests).toHaveLength(3);
    await expect(pending).resolves.toMatchObject({ status: 'online' });
    const [first, second, third] = net.requests.map((r) => r.at);
    expect(second! - first!).toBe(1000);
    expect(third! - second!).toBe(2000);
  });

  it('gives up after 2 retries with the connection-failure text', async () => {
    const { api, net } = client(['network-down', 'network-down', 'network-down']);
    const pending = api.call(routes.health.health, {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3000);
    const error = (await pending) as ApiError;
    expect(net.requests).toHaveLength(3);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('network_error');
    expect(error.status).toBe(0);
    expect(error.message).toBe('Cannot connect to server. Please check your internet connection.');
  });

  it('never retries an HTTP error', async () => {
    const { api, net } = client([json(500, { error: { code: 'server_error', message: 'Server error.' } })]);
    const error = (await api.call(routes.health.health, {}).catch((e: unknown) => e)) as ApiError;
    expect(net.requests).toHaveLength(1);
    expect(error.code).toBe('server_error');
  });

  it('turns a time-out into a timeout error without retrying', async () => {
    const { api, net } = client([], {
      fetch: ((_url: string, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        })) as unknown as typeof fetch,
    });
    const pending = api.call(routes.health.health, {}, { timeoutMs: 3000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3000);
    const error = (await pending) as ApiError;
    expect(error.code).toBe('timeout');
    expect(net.requests).toHaveLength(0);
  });
});

describe('401 → one refresh and one retry (spec §4 Token refresh)', () => {
  const expired = () => json(401, { error: { code: 'token_expired', message: 'Token expirado o inválido' } });
  const rotated = () => json(200, { success: true, token: 'access-2', refreshToken: 'refresh-2', user });

  it('refreshes once, stores the rotated pair and retries with the new token', async () => {
    const { api, net, auth, onRefreshed } = client([
      expired(),
      rotated(),
      json(200, { success: true, user }),
    ]);
    const result = await api.call(routes.auth.me, {});
    expect(result.user.id).toBe('u1');
    expect(net.requests.map((r) => r.url)).toEqual(['/auth/me', '/auth/refresh', '/auth/me']);
    expect(JSON.parse(net.requests[1]?.init.body as string)).toEqual({ refreshToken: 'refresh-1' });
    expect((net.requests[2]?.init.headers as Record<string, string>).Authorization).toBe('Bearer access-2');
    expect(onRefreshed).toHaveBeenCalledTimes(1);
    expect(auth).toEqual({ token: 'access-2', refreshToken: 'refresh-2' });
  });

  it('retries only once: a second 401 is thrown', async () => {
    const { api, net } = client([expired(), rotated(), expired()]);
    const error = (await api.call(routes.auth.me, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(net.requests).toHaveLength(3);
  });

  it('clears auth data when the refresh is refused, and throws the 401', async () => {
    const refused = json(401, { error: { code: 'refresh_invalid', message: 'Your session has expired.' } });
    const { api, net, auth, onAuthLost } = client([expired(), refused]);
    const error = (await api.call(routes.auth.me, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('token_expired');
    expect(onAuthLost).toHaveBeenCalledTimes(1);
    expect(auth).toEqual({ token: null, refreshToken: null });
    expect(net.requests).toHaveLength(2);
  });

  it('A-12 a revoked session whose refresh is refused is lost with the reason, for the sign-in page', async () => {
    const revoked = json(401, { error: { code: 'session_revoked', message: 'closed' } });
    const refused = json(401, { error: { code: 'refresh_invalid', message: 'expired' } });
    const { api, onAuthLost } = client([revoked, refused]);
    const error = (await api.call(routes.auth.me, {}).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('session_revoked');
    expect(onAuthLost).toHaveBeenCalledWith('session_revoked');
  });

  it.each([
    [429, { error: { code: 'rate_limited', message: 'Too many', retryAfterMs: 30_000 } }],
    [500, { error: { code: 'internal_error', message: 'Oops' } }],
    [502, 'Bad Gateway'],
    [503, { error: { code: 'server_too_old', message: 'Deploying' } }],
  ])(
    'keeps the sign-in when the refresh answers %i: the server did not judge the token',
    async (status, body) => {
      const answer = typeof body === 'string' ? new Response(body, { status }) : json(status, body);
      const { api, auth, onAuthLost } = client([expired(), answer]);
      const error = (await api.call(routes.auth.me, {}).catch((e: unknown) => e)) as ApiError;
      expect(error.status).toBe(401);
      expect(onAuthLost).not.toHaveBeenCalled();
      expect(auth).toEqual({ token: 'access-1', refreshToken: 'refresh-1' });
    },
  );

  it('does not refresh without a refresh token', async () => {
    const { api, net, auth } = client([expired()]);
    auth.refreshToken = null;
    await api.call(routes.auth.me, {}).catch(() => undefined);
    expect(net.requests).toHaveLength(1);
  });

  it('does not refresh for a 401 on a public route (wrong password on login)', async () => {
    const { api, net, onAuthLost } = client([
      json(401, { error: { code: 'invalid_credentials', message: 'Invalid email or password.' } }),
    ]);
    const error = (await api
      .call(routes.auth.login, { body: { email: 'a@b.co', password: 'wrong1' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('invalid_credentials');
    expect(net.requests).toHaveLength(1);
    expect(onAuthLost).not.toHaveBeenCalled();
  });

  it('uses an explicit token as given and never refreshes it (logout after local clear)', async () => {
    const { api, net, auth } = client([expired()]);
    auth.token = null;
    await api
      .call(routes.auth.logout, { body: {} }, { token: 'old-access', keepalive: true })
      .catch(() => undefined);
    expect(net.requests).toHaveLength(1);
    expect((net.requests[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer old-access');
    expect(net.requests[0]?.init.keepalive).toBe(true);
  });

  it('shares one refresh between concurrent 401s (rotating tokens must not be reused)', async () => {
    const { api, net } = client([
      expired(),
      expired(),
      rotated(),
      json(200, { success: true, user }),
      json(200, { success: true, user }),
    ]);
    await Promise.all([api.call(routes.auth.me, {}), api.call(routes.auth.me, {})]);
    expect(net.requests.filter((r) => r.url === '/auth/refresh')).toHaveLength(1);
  });
});

describe('A-3 two tabs share one refresh', () => {
  /**
   * Two tabs of one browser: each api client keeps the session in its own memory, both share
   * local storage and one lock (the test's stand-ins for localStorage and Web Locks, both
   * browser boundaries). The network is shared too.
   */
  function twoTabs(steps: Step[]) {
    const net = fakeNetwork(steps);
    const shared = { token: 'access-1', refreshToken: 'refresh-1' };
    let queue: Promise<unknown> = Promise.resolve();
    const crossTabLock = <T>(work: () => Promise<T>): Promise<T> => {
      const run = queue.then(work);
      queue = run.catch(() => undefined);
      return run;
    };
    const tab = () => {
      const memory = { ...shared };
      const api = createApiClient({
        fetch: net.fetch,
        getToken: () => memory.token,
        getRefreshToken: () => memory.refreshToken,
        onRefreshed: (s) =>
          Object.assign(shared, Object.assign(memory, { token: s.token, refreshToken: s.refreshToken })),
        onAuthLost: () => undefined,
        crossTabLock,
        reloadShared: () => Object.assign(memory, shared),
        getLanguage: () => 'en',
        text: () => 'error',
      });
      return { api, memory };
    };
    return { net, first: tab(), second: tab() };
  }
  const expired = () => json(401, { error: { code: 'token_expired', message: 'expired' } });
  const me = () => json(200, { success: true, user });

  it('A-3 the second tab waits for the first tab’s refresh and adopts its pair instead of presenting the rotated token', async () => {
    const { net, first, second } = twoTabs([
      expired(),
      expired(),
      json(200, { success: true, token: 'access-2', refreshToken: 'refresh-2', user }),
      me(),
      me(),
    ]);
    await Promise.all([first.api.call(routes.auth.me, {}), second.api.call(routes.auth.me, {})]);
    const refreshes = net.requests.filter((r) => r.url === '/auth/refresh');
    expect(refreshes).toHaveLength(1);
    expect(JSON.parse(refreshes[0]?.init.body as string)).toEqual({ refreshToken: 'refresh-1' });
    expect(second.memory).toEqual({ token: 'access-2', refreshToken: 'refresh-2' });
    const retries = net.requests
      .slice(3)
      .map((r) => (r.init.headers as Record<string, string>).Authorization);
    expect(retries).toEqual(['Bearer access-2', 'Bearer access-2']);
  });
});

describe('download (GET /chat/export/:id, spec §2 export dialog)', () => {
  it('sends the bearer credential and returns the bytes and the file name', async () => {
    const body = '{"format":"alma.chat-export"}';
    const { api, net } = client([
      new Response(body, {
        status: 200,
        headers: { 'Content-Disposition': 'attachment; filename="s-1.json"' },
      }),
    ]);
    const file = await api.download(routes.chat.exportSession, { params: { id: 's-1' } });
    expect(file.filename).toBe('s-1.json');
    expect(await file.blob.text()).toBe(body);
    expect(net.requests[0]?.url).toBe('/chat/export/s-1');
    expect((net.requests[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer access-1');
  });

  it('throws the server error like call does', async () => {
    const { api } = client([json(404, { error: { code: 'not_found', message: 'Not found' } })]);
    await expect(api.download(routes.chat.exportSession, { params: { id: 'x' } })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('filenameFrom', () => {
  it('reads quoted, bare and missing names', () => {
    expect(filenameFrom('attachment; filename="a.json"')).toBe('a.json');
    expect(filenameFrom('attachment; filename=b.json')).toBe('b.json');
    expect(filenameFrom('attachment')).toBeNull();
    expect(filenameFrom(null)).toBeNull();
  });
});
