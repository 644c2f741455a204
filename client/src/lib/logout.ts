import { routes } from '@alma/protocol';
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
