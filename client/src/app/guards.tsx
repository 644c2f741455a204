import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../components/ui/Spinner.tsx';
import { fetchPreferences, usePreferences, usePreferencesOf } from '../lib/preferences.ts';
import { selectIsSignedIn, useSession } from '../lib/session.ts';

/**
 * Signed-in routes: without a session go to /login, remembering where the user was going —
 * unless the user has just logged out here and the landing page is on its way (`leaving`).
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const signedIn = useSession(selectIsSignedIn);
  const leaving = useSession((s) => s.leaving);
  const location = useLocation();
  // Leaving the guarded screens ends the logout's way out.
  useEffect(() => () => useSession.getState().setLeaving(false), []);
  if (!signedIn && leaving) return <PageLoader label={t('app.loading')} />;
  if (!signedIn) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}

/**
 * Routes that also need the onboarding finished (spec §2: /chat, /dashboard). The server's
 * onboardingCompleted decides; its local cache lets a completed user through at once. When the
 * cache says "not yet" the server is asked first (the onboarding may have been finished on
 * another device); if it cannot be reached, the cache stands.
 */
export function RequireOnboarding() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const preferences = usePreferencesOf(user?.id);
  const sync = usePreferences((s) => (user ? s.sync[user.id] : undefined));
  const location = useLocation();
  const mustAsk = !!user && !preferences.onboardingCompleted && sync === undefined;

  useEffect(() => {
    if (mustAsk) void fetchPreferences(user.id);
  }, [mustAsk, user]);

  if (!user) return <Navigate to="/login" replace state={{ from: location }} />;
  if (!preferences.onboardingCompleted) {
    if (mustAsk || sync === 'pending') return <PageLoader label={t('app.loading')} />;
    return <Navigate to="/onboarding" replace state={{ userId: user.id, from: location }} />;
  }
  return <Outlet />;
}
