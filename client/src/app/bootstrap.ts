import { useEffect } from 'react';
import { useSession } from '../lib/session.ts';

/**
 * Auth on load (spec §4): with no token the user is logged out and local chat history cleared;
 * with one the user is fetched, and a failure clears auth data unless it was a connection failure.
 * The preferences are refreshed from the server into their local cache (the onboarding flag).
 */
export function useAuthBootstrap() {
  useEffect(() => {
    // The store read local storage when this page's code started; the first render comes later
    // (after the language's texts, app/main.tsx), and another tab may have signed in meanwhile.
    // Adopt what is stored now, so "no token" never wipes a session stored in between.
    useSession.getState().reload();
    const { token, clear, setUser } = useSession.getState();
    if (!token) {
      clear();
      return;
    }
    const controller = new AbortController();
    // The API client (and zod with the protocol's schemas) loads only for a signed-in visitor,
    // so the anonymous first screen stays lean.
    void import('./bootstrap-session.ts').then(({ refreshSession }) =>
      refreshSession(controller.signal, setUser),
    );
    return () => controller.abort();
  }, []);
}
