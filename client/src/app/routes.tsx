import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/ui/Spinner.tsx';
import { i18n } from '../lib/i18n.ts';

/** The signed-in screens (spec §2): onboarding, then chat and dashboard once it is finished. */
const signedIn: RouteObject[] = [
  {
    path: '/onboarding',
    lazy: async () => ({
      Component: (await import('./onboarding-route.tsx')).OnboardingRoute,
    }),
  },
  {
    lazy: async () => ({ Component: (await import('./guards.tsx')).RequireOnboarding }),
    children: [
      {
        path: '/chat',
        lazy: async () => ({ Component: (await import('./chat-route.tsx')).ChatRoute }),
      },
      {
        path: '/dashboard',
        lazy: async () => ({
          Component: (await import('../features/dashboard/DashboardPage.tsx')).DashboardPage,
        }),
      },
    ],
  },
];

/**
 * The route table of spec §2. Screens load on demand (each feature is its own chunk), so the
 * landing page does not pay for the chat's socket client or the dashboard.
 */
const screens: RouteObject[] = [
  {
    path: '/',
    lazy: async () => ({ Component: (await import('../features/landing/LandingPage.tsx')).LandingPage }),
  },
  {
    path: '/login',
    lazy: async () => ({ Component: (await import('../features/auth/LoginPage.tsx')).LoginPage }),
  },
  {
    path: '/register',
    lazy: async () => ({ Component: (await import('../features/auth/RegisterPage.tsx')).RegisterPage }),
  },
  {
    path: '/auth/callback',
    lazy: async () => ({
      Component: (await import('../features/auth/AuthCallbackPage.tsx')).AuthCallbackPage,
    }),
  },
  {
    path: '/terms',
    lazy: async () => ({ Component: (await import('../features/legal/TermsPage.tsx')).TermsPage }),
  },
  {
    path: '/privacy',
    lazy: async () => ({ Component: (await import('../features/legal/PrivacyPage.tsx')).PrivacyPage }),
  },
  {
    path: '/forgot-password',
    lazy: async () => ({
      Component: (await import('../features/auth/ForgotPasswordPage.tsx')).ForgotPasswordPage,
    }),
  },
  {
    path: '/reset-password/:token',
    lazy: async () => ({
      Component: (await import('../features/auth/ResetPasswordPage.tsx')).ResetPasswordPage,
    }),
  },
  {
    path: '/contact',
    lazy: async () => ({ Component: (await import('../features/legal/ContactPage.tsx')).ContactPage }),
  },
  {
    // The guards read preferences through the API client: loaded with the first signed-in screen.
    lazy: async () => ({ Component: (await import('./guards.tsx')).RequireAuth }),
    children: [
      {
        // One socket for every signed-in screen (lib/realtime.ts); loaded with the first of them.
        lazy: async () => ({
          Component: (await import('./realtime-provider.tsx')).RealtimeProvider,
        }),
        children: signedIn,
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

/** One root so the first screen's chunk has a loading state (react-router's HydrateFallback). */
export const appRoutes: RouteObject[] = [
  {
    element: <Outlet />,
    HydrateFallback: () => <PageLoader label={i18n.t('app.loading')} />,
    children: screens,
  },
];
