import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Voice } from '@alma/protocol';
import { i18n } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';
import { stubFetch } from '../../test/fetch.ts';
import { testUser as user } from '../../test/fixtures.ts';
import { EmbeddedVoicePicker } from './EmbeddedVoicePicker.tsx';
import { useVoices } from './store.ts';

const voice = (id: string, name: string, language: Voice['language']): Voice => ({
  id,
  name,
  description: `${name} description`,
  category: 'femenina',
  language,
  gender: 'female',
  file: `${id}.mp3`,
  previewUrl: `/system-voices/${id}.mp3`,
  recommended: false,
  favorite: false,
  recent: false,
  isCustom: false,
});
const voices = [voice('es-lucia', 'Lucía', 'español'), voice('en-emma', 'Emma', 'inglés')];

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('es');
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
  useVoices.setState({ catalog: { status: 'idle', voices: [], userId: null }, previewing: null });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the onboarding’s voice picker (spec §2)', () => {
  it('lists the catalogue in the interface language first, previews, and retries when it fails to load', async () => {
    let fail = true;
    stubFetch(({ method, path }) =>
      method === 'GET' && path === '/api/voices'
        ? fail
          ? { status: 500, body: { error: { code: 'server_error', message: 'x' } } }
          : { body: { success: true, voices, message: '' } }
        : undefined,
    );
    const chosen: string[] = [];
    render(
      <I18nextProvider i18n={i18n}>
        <EmbeddedVoicePicker value={null} onChange={(v) => chosen.push(v.id)} />
      </I18nextProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error cargando voces. Por favor, intenta de nuevo.',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('button', { name: 'Escuchar a Lucía' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Emma/ })).toBeNull();
    fireEvent.change(screen.getByLabelText('Idioma'), { target: { value: 'inglés' } });
    fireEvent.click(screen.getByRole('radio', { name: /Emma/ }));
    expect(screen.queryByRole('radio', { name: /Lucía/ })).toBeNull();
    expect(chosen).toEqual(['en-emma']);
  });
});
