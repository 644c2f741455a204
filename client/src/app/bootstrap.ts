import { useEffect } from 'react';
import { routes } from '@alma/protocol';
import { ApiError, call } from '../lib/api.ts';
import { fetchPreferences } from '../lib/preferences.ts';
import { useSession } from '../lib/session.ts';

/**
 * Auth on load (spec §4): with no token the user is logged out and local chat history cleared;
 * with one the user is fetched, and a failure clears auth data unless it was a connection failure.
 * The preferences are refreshed from the server into their local cache (the onboarding flag).
 */
export function useAuthBootstrap() {
  useEffect(() => {
    const { token, clear, setUser } = useSession.getState();
    if (!token) {
      clear();
      return;
    }
    const controller = new AbortController();
    call(routes.auth.me, {}, { signal: controller.signal })
      .then(({ user }) => {
        setUser(user);
        void fetchPreferences(user.id);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && !error.isNetworkError) useSession.getState().clear();
      });
    return () => controller.abort();
  }, []);
}
