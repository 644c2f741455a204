import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { i18n } from '../../lib/i18n.ts';
import { usePreferences } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { OnboardingPage } from './OnboardingPage.tsx';
import { testUser as user } from '../../test/fixtures.ts';
import { stubFetch, testPreferences } from '../../test/fetch.ts';

function renderOnboarding() {
  const router = createMemoryRouter(
    [
      { path: '/onboarding', element: <OnboardingPage /> },
      { path: '/chat', element: <p>chat page</p> },
    ],
    { initialEntries: ['/onboarding'] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('es');
  usePreferences.setState({ byUser: {}, sync: {} });
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('onboarding (spec §2, §5)', () => {
  it('does not advance without an avatar, and says why', () => {
    renderOnboarding();
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert').textContent).toBe('Selecciona o sube un avatar');
    expect(screen.getByRole('heading', { name: 'Elige tu avatar' })).toBeTruthy();
  });

  it('avatar → voice → finish saves the choice to the server and goes to /chat', async () => {
    const calls = stubFetch(({ method, path, body }) =>
      method === 'PUT' && path === '/api/users/preferences'
        ? { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } }
        : undefined,
    );
    const router = renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /Bruja/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));

    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert').textContent).toBe('Selecciona o sube una voz');

    fireEvent.click(screen.getByRole('radio', { name: /Lucía/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Empezar a chatear' }));

    await screen.findByText('chat page');
    expect(router.state.location.pathname).toBe('/chat');
    expect(usePreferences.getState().get('u1')).toEqual({
      avatar: 'witch',
      voice: 'es-lucia',
      onboardingCompleted: true,
    });
    expect(localStorage.getItem('selectedAvatar')).toBe('witch');
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/users/preferences',
      body: {
        avatar: 'witch',
        voice: 'es-lucia',
        selectedAvatarId: 'witch',
        defaultVoiceId: 'es-lucia',
        onboardingCompleted: true,
      },
    });
  });

  it('stays on the finish step and says so when the server refuses to save', async () => {
    stubFetch(() => ({
      status: 500,
      body: { error: { code: 'server_error', message: 'Error del servidor.' } },
    }));
    const router = renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /Bruja/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('radio', { name: /Lucía/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Empezar a chatear' }));
    expect(await screen.findByText('Error del servidor.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('going back keeps the avatar chosen', () => {
    renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /^Robot Ciencia/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Robot Ciencia/ }).checked).toBe(true);
  });
});
