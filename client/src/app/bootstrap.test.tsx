import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { useSession } from '../lib/session.ts';
import { testUser } from '../test/fixtures.ts';
import { useAuthBootstrap } from './bootstrap.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
  useSession.getState().reload();
});

describe('auth on load (spec §4)', () => {
  it('with no token anywhere: logged out, local chat history cleared', () => {
    localStorage.setItem('chatHistory', '[]');
    useSession.getState().reload();
    renderHook(() => useAuthBootstrap());
    expect(localStorage.getItem('chatHistory')).toBeNull();
    expect(useSession.getState().token).toBeNull();
  });

  it('a session stored after the page started (another tab) is adopted, not wiped', () => {
    useSession.getState().reload(); // the store starts with nothing stored
    // Stored between the store's start and the first render, as another tab's sign-in would.
    localStorage.setItem('token', 'access');
    localStorage.setItem('refreshToken', 'refresh');
    localStorage.setItem('user', JSON.stringify(testUser));
    // The signed-in path fetches /auth/me; no server here.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderHook(() => useAuthBootstrap());
    expect(localStorage.getItem('token')).toBe('access');
    expect(useSession.getState().token).toBe('access');
    expect(useSession.getState().user?.id).toBe(testUser.id);
  });

  /** A signed-in page whose start-up `/auth/me` gets `answer`. */
  async function startWith(answer: () => Response) {
    localStorage.setItem('token', 'access');
    localStorage.setItem('refreshToken', 'refresh');
    localStorage.setItem('user', JSON.stringify(testUser));
    useSession.getState().reload();
    const fetch = vi.fn(() => Promise.resolve(answer()));
    vi.stubGlobal('fetch', fetch);
    renderHook(() => useAuthBootstrap());
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50)); // the answer handled
    return fetch;
  }
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it.each([
    [429, () => json(429, { error: { code: 'rate_limited', message: 'Too many', retryAfterMs: 1000 } })],
    [500, () => json(500, { error: { code: 'internal_error', message: 'Oops' } })],
    [502, () => new Response('Bad Gateway', { status: 502 })],
  ])(
    'a %i on /auth/me at start-up keeps the session: the server did not refuse it',
    async (_status, answer) => {
      await startWith(answer);
      expect(useSession.getState().token).toBe('access');
      expect(localStorage.getItem('refreshToken')).toBe('refresh');
    },
  );

  it('a refused session (401, then a refused refresh) is cleared at start-up', async () => {
    const refused = (code: string) => json(401, { error: { code, message: 'No' } });
    let n = 0;
    const fetch = await startWith(() => refused(n++ === 0 ? 'token_expired' : 'refresh_invalid'));
    await waitFor(() => expect(useSession.getState().token).toBeNull());
    expect(fetch).toHaveBeenCalledTimes(2); // /auth/me, then /auth/refresh
    expect(localStorage.getItem('token')).toBeNull();
  });
});
