import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { i18n } from '../../lib/i18n.ts';
import { usePreferences } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import type { Voice } from '@alma/protocol';
import { OnboardingPage } from './OnboardingPage.tsx';
import type { RenderVoicePicker } from './VoiceStep.tsx';
import { testUser as user } from '../../test/fixtures.ts';
import { stubFetch, testPreferences, type FakeRoute } from '../../test/fetch.ts';

function voice(id: string, name: string, language: 'español' | 'inglés', category = 'femenina') {
  return {
    id,
    name,
    description: `${name} description`,
    category,
    language,
    gender: category === 'femenina' ? 'female' : 'male',
    file: `${id}.mp3`,
    previewUrl: `/system-voices/${id}.mp3`,
    recommended: false,
    favorite: false,
    recent: false,
    isCustom: false,
  };
}
const voices = [
  voice('es-lucia', 'Lucía', 'español'),
  voice('es-mateo', 'Mateo', 'español', 'masculina'),
  voice('en-emma', 'Emma', 'inglés'),
] as Voice[];

/** The voice step's picker as app/ composes it: a stand-in here (the voice feature tests its own). */
const voicePicker: RenderVoicePicker = ({ value, onChange }) => (
  <div role="radiogroup" aria-label="Voces del sistema">
    {voices.map((v) => (
      <label key={v.id}>
        <input type="radio" name="voice" checked={value === v.id} onChange={() => onChange(v)} />
        {v.name}
      </label>
    ))}
  </div>
);

/** The server: the voice catalogue, plus whatever the test adds. */
function serve(more: FakeRoute = () => undefined) {
  return stubFetch((request) =>
    request.method === 'GET' && request.path === '/api/voices'
      ? { body: { success: true, voices, message: '' } }
      : more(request),
  );
}

function renderOnboarding(
  options: { state?: unknown; picker?: Parameters<typeof OnboardingPage>[0]['renderAvatarPicker'] } = {},
) {
  const router = createMemoryRouter(
    [
      {
        path: '/onboarding',
        element: <OnboardingPage renderAvatarPicker={options.picker} renderVoicePicker={voicePicker} />,
      },
      { path: '/chat', element: <p>chat page</p> },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: [{ pathname: '/onboarding', state: options.state ?? null }] },
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
    const calls = serve(({ method, path, body }) =>
      method === 'PUT' && path === '/api/users/preferences'
        ? { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } }
        : undefined,
    );
    const router = renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /Bruja/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));

    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert').textContent).toBe('Selecciona o sube una voz');

    await screen.findByRole('radiogroup', { name: 'Voces del sistema' });
    fireEvent.click(screen.getByRole('radio', { name: /Lucía/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByText('Tu avatar será Bruja y hablará con la voz Lucía.')).toBeTruthy();
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
    serve(() => ({
      status: 500,
      body: { error: { code: 'server_error', message: 'Error del servidor.' } },
    }));
    const router = renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /Bruja/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(await screen.findByRole('radio', { name: /Lucía/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Empezar a chatear' }));
    expect(await screen.findByText('Error del servidor.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/onboarding');
  });

  it('going back keeps the avatar chosen', () => {
    serve();
    renderOnboarding();
    fireEvent.click(screen.getByRole('radio', { name: /^Robot Ciencia/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /^Robot Ciencia/ }).checked).toBe(true);
  });

  it('uses the avatar picker app/ composes in, with the same gating', () => {
    serve();
    renderOnboarding({
      picker: ({ value, onChange }) => (
        <button type="button" data-value={value ?? ''} onClick={() => onChange('elf')}>
          pick elf
        </button>
      ),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert').textContent).toBe('Selecciona o sube un avatar');
    fireEvent.click(screen.getByRole('button', { name: 'pick elf' }));
    expect(screen.getByRole('button', { name: 'pick elf' }).dataset.value).toBe('elf');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('heading', { name: 'Elige una voz' })).toBeTruthy();
  });

  it('without a user id it sends the user to /login (spec §2)', async () => {
    useSession.getState().clear();
    renderOnboarding();
    expect(await screen.findByText('login page')).toBeTruthy();
  });

  it('takes the user id from the route state (after registration or the OAuth callback)', () => {
    useSession.getState().clear();
    serve();
    renderOnboarding({ state: { userId: 'u9', fromOAuth: true } });
    expect(screen.getByRole('heading', { name: 'Elige tu avatar' })).toBeTruthy();
  });
});
