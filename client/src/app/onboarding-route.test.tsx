import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SYSTEM_AVATAR_IDS } from '@alma/protocol';
import { clearAvatarCatalogCache } from '../features/avatar/selector/use-avatar-catalog.ts';
import { i18n } from '../lib/i18n.ts';
import { usePreferences } from '../lib/preferences.ts';
import { useSession } from '../lib/session.ts';
import { stubFetch, testPreferences } from '../test/fetch.ts';
import { testUser as user } from '../test/fixtures.ts';
import { OnboardingRoute } from './onboarding-route.tsx';

const avatars = SYSTEM_AVATAR_IDS.map((id) => ({
  id,
  name: id,
  description: id,
  category: 'fantasy',
  model: `/models/${id}.glb`,
  portrait: `/portraits/${id}.webp?v=1`,
}));
const voices = [
  {
    id: 'en-emma',
    name: 'Emma',
    description: 'Warm',
    category: 'femenina',
    language: 'inglés',
    gender: 'female',
    file: 'en-emma.mp3',
    previewUrl: '/system-voices/en-emma.mp3',
    recommended: true,
    favorite: false,
    recent: false,
    isCustom: false,
  },
];

beforeEach(async () => {
  localStorage.clear();
  clearAvatarCatalogCache();
  await i18n.changeLanguage('en');
  usePreferences.setState({ byUser: {}, sync: {} });
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/onboarding with the embedded avatar selector', () => {
  it('picks a system avatar from GET /api/avatars and a voice, then saves and opens the chat', async () => {
    const calls = stubFetch(({ method, path, body }) => {
      if (path === '/api/avatars')
        return {
          body: {
            success: true,
            avatars,
            defaultAvatar: { model: '/model.glb', portrait: '/portraits/default.webp?v=1' },
          },
        };
      if (path === '/api/voices') return { body: { success: true, voices, message: '' } };
      if (method === 'PUT' && path === '/api/users/preferences')
        return { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } };
      return undefined;
    });
    const router = createMemoryRouter(
      [
        { path: '/onboarding', element: <OnboardingRoute /> },
        { path: '/chat', element: <p>chat page</p> },
      ],
      { initialEntries: [{ pathname: '/onboarding', state: { userId: 'u1', fromOAuth: false } }] },
    );
    render(
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert').textContent).toBe('Select or upload an avatar');

    const group = await screen.findByRole('radiogroup', { name: 'System avatars' });
    expect(group.querySelectorAll('input[type=radio]')).toHaveLength(8);
    fireEvent.click(screen.getByRole('radio', { name: /Deer Woman/ }));
    // The live preview follows the choice (jsdom: the static fallback).
    expect(screen.getByRole('img', { name: '3D avatar: Deer Woman' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    fireEvent.click(await screen.findByRole('radio', { name: /Emma/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Start chatting' }));
    await screen.findByText('chat page');
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/users/preferences',
      body: {
        avatar: 'deerWoman',
        voice: 'en-emma',
        selectedAvatarId: 'deerWoman',
        defaultVoiceId: 'en-emma',
        onboardingCompleted: true,
      },
    });
  });
});
