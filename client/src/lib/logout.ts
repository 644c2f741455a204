import { routes } from '@alma/protocol';
import { call } from './api.ts';
import { useSession } from './session.ts';

/**
 * Revokes the refresh token's family on the server, then clears local auth data whatever the
 * server said (a failed logout call must not keep the user signed in on this device).
 */
export async function logout(): Promise<void> {
  const { refreshToken, token } = useSession.getState();
  if (token) {
    try {
      await call(routes.auth.logout, { body: refreshToken ? { refreshToken } : {} }, { timeoutMs: 5000 });
    } catch {
      // Already logged out, offline, or the token expired: clearing locally is what matters.
    }
  }
  useSession.getState().clear();
}
