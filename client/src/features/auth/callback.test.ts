import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { testUser } from '../../test/fixtures.ts';
import { completeCallback, paramError, readCallbackParams, type CallbackDeps } from './callback.ts';

const t = (key: string, options?: Record<string, string>) =>
  options ? `${key} ${JSON.stringify(options)}` : key;

function deps(fetchUser: CallbackDeps['fetchUser']) {
  return {
    storeTokens: vi.fn(),
    fetchUser,
    onUser: vi.fn(() => Promise.resolve()),
    text: t,
  } satisfies CallbackDeps;
}

const read = (query: string) => readCallbackParams(new URLSearchParams(query));

describe('/auth/callback (spec §2)', () => {
  it('reads token, refreshToken, provider, isNewUser, error and error_description', () => {
    expect(read('token=a&refreshToken=b&provider=github&isNewUser=true')).toEqual({
      token: 'a',
      refreshToken: 'b',
      provider: 'github',
      isNewUser: true,
      error: null,
      errorDescription: null,
    });
    expect(read('error=oauth_failed&error_description=Nope&provider=evil')).toMatchObject({
      token: null,
      provider: null,
      isNewUser: false,
      error: 'oauth_failed',
      errorDescription: 'Nope',
    });
  });

  it('an error shows its description; a known code without one shows its text', () => {
    expect(paramError(read('error=oauth_failed&error_description=Denied'), t)).toBe(
      'errors.oauthFailed {"detail":"Denied"}',
    );
    expect(paramError(read('error=oauth_not_configured'), t)).toBe(
      'errors.oauthFailed {"detail":"errors.oauth_not_configured"}',
    );
  });

  it('a missing token is an error too; an error wins over a token', () => {
    expect(paramError(read('provider=google'), t)).toBe('errors.oauthNoToken');
    expect(paramError(read('token=a&error=access_denied'), t)).toBe(
      'errors.oauthFailed {"detail":"access_denied"}',
    );
    expect(paramError(read('token=a'), t)).toBeNull();
  });

  it('with a token: stores both tokens, fetches the user, existing user → /chat after the delay', async () => {
    const d = deps(() => Promise.resolve(testUser));
    const outcome = await completeCallback(
      { ...read('token=a&refreshToken=b&provider=google'), token: 'a' },
      d,
    );
    expect(d.storeTokens).toHaveBeenCalledWith('a', 'b');
    expect(d.onUser).toHaveBeenCalledWith(testUser, false);
    expect(outcome).toEqual({ kind: 'navigate', to: '/chat', delay: true });
  });

  it('a new user → /onboarding with { userId, fromOAuth: true }', async () => {
    const outcome = await completeCallback(
      { ...read('token=a&isNewUser=true&provider=github'), token: 'a' },
      deps(() => Promise.resolve(testUser)),
    );
    expect(outcome).toEqual({
      kind: 'navigate',
      to: '/onboarding',
      state: { userId: 'u1', fromOAuth: true },
      delay: true,
    });
  });

  it('fetching the user throws (no answer) → /chat at once', async () => {
    const network = new ApiError({ code: 'network_error', message: 'x', status: 0 });
    const outcome = await completeCallback(
      { ...read('token=a'), token: 'a' },
      deps(() => Promise.reject(network)),
    );
    expect(outcome).toEqual({ kind: 'navigate', to: '/chat', delay: false });
    const odd = await completeCallback(
      { ...read('token=a'), token: 'a' },
      deps(() => Promise.reject(new Error('?'))),
    );
    expect(odd).toEqual({ kind: 'navigate', to: '/chat', delay: false });
  });

  it('the fetch answers unsuccessfully → an error, and the user is not kept', async () => {
    const refused = new ApiError({ code: 'unauthorized', message: 'No autorizado', status: 401 });
    const d = deps(() => Promise.reject(refused));
    const outcome = await completeCallback({ ...read('token=a'), token: 'a' }, d);
    expect(outcome).toEqual({ kind: 'error', message: 'No autorizado' });
    expect(d.onUser).not.toHaveBeenCalled();
  });
});
