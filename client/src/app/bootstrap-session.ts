import { routes, type User } from '@alma/protocol';
import { ApiError, call, judgesToken } from '../lib/api.ts';
import { fetchPreferences } from '../lib/preferences.ts';
import { useSession } from '../lib/session.ts';

/**
 * `/auth/me` on load (spec §4): the user, validated, and their preferences. The server refusing
 * the session logs out; a connection failure, a rate limit or a server error keeps it.
 */
export async function refreshSession(signal: AbortSignal, setUser: (user: User) => void): Promise<void> {
  try {
    const { user } = await call(routes.auth.me, {}, { signal });
    setUser(user);
    void fetchPreferences(user.id);
  } catch (error) {
    if (signal.aborted) return;
    if (error instanceof ApiError && judgesToken(error.status)) useSession.getState().clear();
  }
}
