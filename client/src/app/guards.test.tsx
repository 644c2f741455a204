import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import { logoutToLanding } from '../lib/logout.ts';
import { usePreferences } from '../lib/preferences.ts';
import { redirectTarget } from '../lib/redirect.ts';
import { useSession } from '../lib/session.ts';
import { RequireAuth, RequireOnboarding } from './guards.tsx';
import { appRoutes } from './routes.tsx';
import { testUser as user } from '../test/fixtures.ts';
import { stubFetch, testPreferences } from '../test/fetch.ts';

/** Shows where the router ended up and the state it carries. */
function Where({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p>
      {name} at {location.pathname}; from {redirectTarget(location.state, 'none')}
    </p>
  );
}

// The guards of app/routes.tsx around stand-in pages, so only the guards are under test.
const guarded: RouteObject[] = [
  { path: '/', element: <Where name="landing" /> },
  { path: '/login', element: <Where name="login" /> },
  {
    element: <RequireAuth />,
    children: [
      { path: '/onboarding', element: <Where name="onboarding" /> },
      {
        element: <RequireOnboarding />,
        children: [
          { path: '/chat', element: <Where name="chat" /> },
          { path: '/dashboard', element: <Where name="dashboard" /> },
        ],
      },
    ],
  },
];

function visit(path: string, routes: RouteObject[] = guarded) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

function signIn() {
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
}

/** The server's preferences for the signed-in user. */
function serverSays(onboardingCompleted: boolean) {
  return stubFetch(({ path }) =>
    path === '/api/users/preferences'
      ? { body: { success: true, preferences: { ...testPreferences, onboardingCompleted } } }
      : undefined,
  );
}

beforeEach(() => {
  localStorage.clear();
  useSession.getState().clear();
  usePreferences.setState({ byUser: {}, sync: {} });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('route guards (spec §2)', () => {
  it('sends an anonymous visitor of /chat to /login, remembering the origin', () => {
    visit('/chat?x=1');
    expect(screen.getByText('login at /login; from /chat?x=1')).toBeTruthy();
  });

  it('sends an anonymous visitor of /onboarding and /dashboard to /login', () => {
    visit('/dashboard');
    expect(screen.getByText('login at /login; from /dashboard')).toBeTruthy();
    cleanup();
    visit('/onboarding');
    expect(screen.getByText('login at /login; from /onboarding')).toBeTruthy();
  });

  it('sends a signed-in user with onboarding incomplete (on the server) to /onboarding', async () => {
    serverSays(false);
    signIn();
    visit('/chat');
    expect(await screen.findByText(/^onboarding at \/onboarding/)).toBeTruthy();
    cleanup();
    visit('/dashboard');
    expect(await screen.findByText(/^onboarding at \/onboarding/)).toBeTruthy();
  });

  it('asks the server when the local cache says not yet: onboarding finished on another device', async () => {
    const calls = serverSays(true);
    signIn();
    visit('/chat');
    expect(await screen.findByText(/^chat at \/chat/)).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/users/preferences']);
    expect(usePreferences.getState().get('u1').onboardingCompleted).toBe(true);
  });

  it('lets a signed-in user reach /onboarding itself', () => {
    signIn();
    visit('/onboarding');
    expect(screen.getByText(/^onboarding at \/onboarding/)).toBeTruthy();
  });

  it('lets a signed-in user with onboarding complete reach /chat and /dashboard', () => {
    signIn();
    usePreferences.getState().save('u1', { avatar: 'witch', voice: 'es-lucia', onboardingCompleted: true });
    visit('/chat');
    expect(screen.getByText(/^chat at \/chat/)).toBeTruthy();
    cleanup();
    visit('/dashboard');
    expect(screen.getByText(/^dashboard at \/dashboard/)).toBeTruthy();
  });

  it('logout returns to / even while the landing page still loads (spec §2), and /login guards again after', async () => {
    const calls = stubFetch(({ path }) =>
      path === '/auth/logout' ? { body: { success: true } } : undefined,
    );
    signIn();
    usePreferences.getState().save('u1', { avatar: 'witch', voice: 'es-lucia', onboardingCompleted: true });
    let loadLanding = () => {};
    const landingLoaded = new Promise<void>((resolve) => (loadLanding = resolve));
    const lazyLanding: RouteObject = {
      path: '/',
      lazy: async () => {
        await landingLoaded;
        return { Component: () => <Where name="landing" /> };
      },
    };
    const router = visit('/dashboard', [lazyLanding, ...guarded.slice(1)]);
    expect(screen.getByText(/^dashboard at \/dashboard/)).toBeTruthy();

    const done = logoutToLanding(router.navigate);
    await waitFor(() => expect(useSession.getState().token).toBeNull());
    expect(screen.queryByText(/^login at/)).toBeNull();
    loadLanding();
    expect(await screen.findByText('landing at /; from none')).toBeTruthy();
    await done;
    expect(calls.map((c) => c.path)).toEqual(['/auth/logout']);

    await router.navigate('/chat');
    expect(await screen.findByText('login at /login; from /chat')).toBeTruthy();
  });

  it('keeps onboarding per user: another user on the same browser starts over', async () => {
    serverSays(false);
    usePreferences.getState().save('someone-else', { onboardingCompleted: true });
    signIn();
    visit('/chat');
    expect(await screen.findByText(/^onboarding at \/onboarding/)).toBeTruthy();
  });
});

describe('route table', () => {
  it('redirects any unknown path to /', async () => {
    const router = visit('/no/such/page', appRoutes);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('declares every route of spec §2', () => {
    const paths = new Set<string>();
    const walk = (list: RouteObject[]) =>
      list.forEach((r) => {
        if (r.path) paths.add(r.path);
        if (r.children) walk(r.children);
      });
    walk(appRoutes);
    for (const path of [
      '/',
      '/login',
      '/register',
      '/auth/callback',
      '/onboarding',
      '/chat',
      '/dashboard',
      '/terms',
      '/privacy',
      '/forgot-password',
      '/reset-password/:token',
      '/contact',
      '*',
    ]) {
      expect(paths.has(path), path).toBe(true);
    }
  });
});

describe('redirectTarget', () => {
  it('returns the remembered origin, else the fallback; never an auth page', () => {
    expect(redirectTarget({ from: { pathname: '/dashboard', search: '?tab=usage', hash: '' } })).toBe(
      '/dashboard?tab=usage',
    );
    expect(redirectTarget(null)).toBe('/chat');
    expect(redirectTarget({ from: { pathname: '/login', search: '', hash: '' } })).toBe('/chat');
  });
});
