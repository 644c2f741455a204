import { lazy, Suspense, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/ui/Spinner.tsx';
import { loadTexts, TEXT_PARTS, type TextPart } from '../lib/i18n.ts';

function Loading() {
  const { t } = useTranslation();
  return <PageLoader label={t('app.loading')} />;
}

/** A screen's chunk, started early by `preloadScreens` (the lazy component awaits the same one). */
interface ScreenHandle {
  load: () => Promise<unknown>;
}

/**
 * A screen or layout loaded on demand (each feature is its own chunk) behind its own Suspense
 * boundary: while it loads, only its place shows the loader — a layout above it (the socket's
 * provider, the guards) stays mounted.
 */
function onDemand<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): Pick<RouteObject, 'element' | 'handle'> {
  const Screen = lazy(async () => ({ default: pick(await load()) }));
  const handle: ScreenHandle = { load };
  return {
    element: (
      <Suspense fallback={<Loading />}>
        <Screen />
      </Suspense>
    ),
    handle,
  };
}

/**
 * A screen's chunk and the parts of the language's texts it shows (lib/i18n.ts: the first render
 * has only the shell's), in parallel.
 */
function withTexts<M>(parts: readonly TextPart[], load: () => Promise<M>): () => Promise<M> {
  return async () => (await Promise.all([load(), loadTexts(parts)]))[0];
}

/** A screen past the first ones: all of the texts. */
const withAllTexts = <M,>(load: () => Promise<M>) => withTexts(TEXT_PARTS, load);

/** The signed-in screens (spec §2): onboarding, then chat and dashboard once it is finished. */
const signedIn: RouteObject[] = [
  {
    path: '/onboarding',
    ...onDemand(
      withAllTexts(() => import('./onboarding-route.tsx')),
      (m) => m.OnboardingRoute,
    ),
  },
  {
    ...onDemand(
      withAllTexts(() => import('./guards.tsx')),
      (m) => m.RequireOnboarding,
    ),
    children: [
      {
        path: '/chat',
        ...onDemand(
          withAllTexts(() => import('./chat-route.tsx')),
          (m) => m.ChatRoute,
        ),
      },
      {
        path: '/dashboard',
        ...onDemand(
          withAllTexts(() => import('../features/dashboard/DashboardPage.tsx')),
          (m) => m.DashboardPage,
        ),
      },
    ],
  },
];

/**
 * The route table of spec §2, for react-router's declarative router (its data router weighs
 * twice as much on the first screen and nothing here uses loaders or actions). Screens load on
 * demand, so the landing page does not pay for the chat's socket client or the dashboard.
 */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    ...onDemand(
      withTexts(['landing'], () => import('../features/landing/LandingPage.tsx')),
      (m) => m.LandingPage,
    ),
  },
  {
    path: '/login',
    ...onDemand(
      withTexts(['auth'], () => import('../features/auth/LoginPage.tsx')),
      (m) => m.LoginPage,
    ),
  },
  {
    path: '/register',
    ...onDemand(
      withTexts(['auth'], () => import('../features/auth/RegisterPage.tsx')),
      (m) => m.RegisterPage,
    ),
  },
  {
    path: '/auth/callback',
    ...onDemand(
      withAllTexts(() => import('../features/auth/AuthCallbackPage.tsx')),
      (m) => m.AuthCallbackPage,
    ),
  },
  {
    path: '/terms',
    ...onDemand(
      withAllTexts(() => import('../features/legal/TermsPage.tsx')),
      (m) => m.TermsPage,
    ),
  },
  {
    path: '/privacy',
    ...onDemand(
      withAllTexts(() => import('../features/legal/PrivacyPage.tsx')),
      (m) => m.PrivacyPage,
    ),
  },
  {
    path: '/forgot-password',
    ...onDemand(
      withTexts(['auth'], () => import('../features/auth/ForgotPasswordPage.tsx')),
      (m) => m.ForgotPasswordPage,
    ),
  },
  {
    path: '/reset-password/:token',
    ...onDemand(
      withTexts(['auth'], () => import('../features/auth/ResetPasswordPage.tsx')),
      (m) => m.ResetPasswordPage,
    ),
  },
  {
    path: '/contact',
    ...onDemand(
      withAllTexts(() => import('../features/legal/ContactPage.tsx')),
      (m) => m.ContactPage,
    ),
  },
  {
    // The guards read preferences through the API client: loaded with the first signed-in screen.
    ...onDemand(
      withAllTexts(() => import('./guards.tsx')),
      (m) => m.RequireAuth,
    ),
    children: [
      {
        // One socket for every signed-in screen (lib/realtime.ts); loaded with the first of them.
        ...onDemand(
          withAllTexts(() => import('./realtime-provider.tsx')),
          (m) => m.RealtimeProvider,
        ),
        children: signedIn,
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

/**
 * Starts loading the chunks of the screen at `pathname` at once — in parallel with the language's
 * texts, which the first render waits for (app/main.tsx) — rather than after that render.
 */
export function preloadScreens(pathname: string): void {
  for (const match of matchRoutes(appRoutes, pathname) ?? []) {
    const handle = match.route.handle as ScreenHandle | undefined;
    handle?.load().catch(() => undefined);
  }
}
