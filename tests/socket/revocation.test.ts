import { ClientEvent, ServerEvent, routes, type AuthSession } from '@alma/protocol';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, HttpError, registerUser } from '../fixtures/api.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';
import { connectClient, type TestClient } from '../fixtures/socket.ts';

/**
 * SPEC.md A-12 over real sockets: an ended session's open sockets are told why and disconnected,
 * its handshakes refused; the sessions that stand keep sending.
 */
let server: TestServer;
const clients: TestClient[] = [];
beforeAll(async () => {
  // No grace window: a second presentation of a refresh token is a reuse at once.
  server = await startTestServer({ REFRESH_REUSE_GRACE_S: '0' });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.dispose();
});

async function device(token: string, language: 'es' | 'en' = 'en'): Promise<TestClient> {
  const c = connectClient(server.url, token, { autoConnect: false });
  c.socket.io.opts.extraHeaders = { 'accept-language': language };
  clients.push(c);
  c.socket.connect();
  await c.connected();
  return c;
}
const signIn = (email: string, password = 'Secret123') =>
  apiClient(server.url)(routes.auth.login, { body: { email, password } });
const disconnected = (c: TestClient) =>
  new Promise<string>((resolve) => c.socket.once('disconnect', (reason) => resolve(reason)));
/**
 * A socket the server still serves: a request is acknowledged (here `not_found`: watching a
 * session that does not exist is cheap, unlike a message that starts a spoken reply).
 */
const sends = async (c: TestClient) => {
  const ack = await c.request(ClientEvent.sessionWatch, { sessionId: randomUUID() });
  return ack.ok || ack.error.code === 'not_found';
};
const handshakeError = async (token: string) => {
  const c = connectClient(server.url, token, { autoConnect: false });
  c.socket.io.opts.reconnection = false;
  clients.push(c);
  c.socket.connect();
  return c.connected().then(
    () => null,
    (error: Error) => error.message,
  );
};

describe('A-12 revocation reaches open sockets', () => {
  let user: AuthSession;
  beforeAll(async () => {
    user = await registerUser(server.url);
  });

  it('A-4 A-12 logout closes that sign-in’s sockets with auth:revoked signed_out; another device keeps sending', async () => {
    const phone = await signIn(user.user.email);
    const laptop = await signIn(user.user.email);
    const phoneSocket = await device(phone.token, 'es');
    const laptopSocket = await device(laptop.token);
    const closed = disconnected(phoneSocket);

    await apiClient(server.url, { token: phone.token })(routes.auth.logout, {
      body: { refreshToken: phone.refreshToken },
    });

    expect(await closed).toBe('io server disconnect');
    expect(phoneSocket.events.find((e) => e.event === ServerEvent.authRevoked)?.payload).toEqual({
      code: 'signed_out',
      message: 'Se ha cerrado tu sesión. Inicia sesión de nuevo para continuar.',
    });
    expect(phoneSocket.problems).toEqual([]);
    expect(await handshakeError(phone.token)).toBe('signed_out');
    expect(laptopSocket.socket.connected).toBe(true);
    expect(await sends(laptopSocket)).toBe(true);
  });

  it('A-6 A-12 a password change disconnects every other device with password_changed; the caller’s socket stays', async () => {
    const someone = await registerUser(server.url);
    const other = await signIn(someone.user.email);
    const callerSocket = await device(someone.token);
    const otherSocket = await device(other.token);
    const closed = disconnected(otherSocket);

    const renewed = await apiClient(server.url, { token: someone.token })(routes.account.updatePassword, {
      body: { currentPassword: 'Secret123', newPassword: 'Changed123' },
    });

    expect(await closed).toBe('io server disconnect');
    expect(otherSocket.events.find((e) => e.event === ServerEvent.authRevoked)?.payload).toMatchObject({
      code: 'password_changed',
      message: 'Your password was changed. Sign in again with the new password.',
    });
    expect(await handshakeError(other.token)).toBe('password_changed');
    // REST refuses the other device too, refresh included: it must sign in again.
    const refused = await apiClient(server.url, { token: other.token })(routes.auth.me).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).code).toBe('password_changed');
    const noRefresh = await apiClient(server.url)(routes.auth.refresh, {
      body: { refreshToken: other.refreshToken },
    }).catch((e: unknown) => e);
    expect((noRefresh as HttpError).status).toBe(401);

    expect(callerSocket.socket.connected).toBe(true);
    expect(await sends(callerSocket)).toBe(true);
    expect(callerSocket.events.some((e) => e.event === ServerEvent.authRevoked)).toBe(false);
    // The caller's next handshake uses its new token.
    expect(await handshakeError(renewed.token)).toBeNull();
  });

  it('A-3 A-12 a refresh-token reuse after the grace window closes the sockets of that sign-in with session_revoked', async () => {
    const someone = await registerUser(server.url);
    const c = await device(someone.token);
    const closed = disconnected(c);
    const refresh = (refreshToken: string) =>
      apiClient(server.url)(routes.auth.refresh, { body: { refreshToken } });
    await refresh(someone.refreshToken);
    await expect(refresh(someone.refreshToken)).rejects.toBeInstanceOf(HttpError);
    expect(await closed).toBe('io server disconnect');
    expect(c.events.at(-1)).toMatchObject({ event: 'auth:revoked', payload: { code: 'session_revoked' } });
  });
});
