import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
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
});
