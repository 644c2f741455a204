import { routes } from '@alma/protocol';
import type { NavigateFunction } from 'react-router-dom';
import { call } from './api.ts';
import { useSession } from './session.ts';
import { useUsage } from './usage.ts';

/**
 * Logs out: local auth data goes at once (a page change must not leave the user signed in on
 * this device), then the server is asked to revoke the refresh token's family. That request
 * carries the token explicitly and uses keepalive, so it completes even if the page navigates.
 */
export async function logout(): Promise<void> {
  const { refreshToken, token } = useSession.getState();
  useSession.getState().clear();
  useUsage.getState().clear();
  if (!token) return;
  try {
    await call(
      routes.auth.logout,
      { body: refreshToken ? { refreshToken } : {} },
      { token, keepalive: true, timeoutMs: 5000 },
    );
  } catch {
    // Already logged out, offline, or the token expired: clearing locally is what matters.
  }
}

/**
 * The logout buttons (spec §2: "logout (returns to /)"): leave for the landing page and log out.
 * The page change is a transition (the landing page may still have to load) while clearing the
 * session re-renders at once, so `leaving` tells the guarded screen still on show to wait for
 * the landing page rather than send the user to /login (see RequireAuth).
 */
export async function logoutToLanding(navigate: NavigateFunction): Promise<void> {
  useSession.getState().setLeaving(true);
  void navigate('/', { replace: true });
  await logout();
}
