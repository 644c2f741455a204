import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { usePreferencesOf } from '../lib/preferences.ts';
import { selectIsSignedIn, useSession } from '../lib/session.ts';

/** Signed-in routes: without a session go to /login, remembering where the user was going. */
export function RequireAuth() {
  const signedIn = useSession(selectIsSignedIn);
  const location = useLocation();
  if (!signedIn) return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
}

/** Routes that also need the onboarding finished (spec §2: /chat, /dashboard). */
export function RequireOnboarding() {
  const user = useSession((s) => s.user);
  const preferences = usePreferencesOf(user?.id);
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location }} />;
  if (!preferences.onboardingCompleted) {
    return <Navigate to="/onboarding" replace state={{ userId: user.id, from: location }} />;
  }
  return <Outlet />;
}
