import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Voice } from '@alma/protocol';
import { i18n } from '../../lib/i18n.ts';
import { usePreferences } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { stubFetch } from '../../test/fetch.ts';
import { testUser as user } from '../../test/fixtures.ts';
import { useVoices } from './store.ts';
import { VoicePickerModal } from './VoicePicker.tsx';

/** The picker's custom voices (SPEC.md VU-7, VU-8): listed under "personalizadas", deleted after a confirm. */
const system: Voice = {
  id: 'es-lucia',
  name: 'Lucía',
  description: 'Cálida',
  category: 'femenina',
  language: 'español',
  gender: 'female',
  file: 'es-lucia.mp3',
  previewUrl: '/system-voices/es-lucia.mp3',
  recommended: true,
  favorite: false,
  recent: false,
  isCustom: false,
};
const custom: Voice = {
  ...system,
  id: 'custom-0193a1b2-0000-7000-8000-000000000001',
  name: 'Mi voz',
  description: 'Tu voz subida (aproximación).',
  file: 'custom-0193a1b2-0000-7000-8000-000000000001.wav',
  previewUrl: '/api/voices/custom/u/custom-0193a1b2-0000-7000-8000-000000000001.wav',
  recommended: false,
  isCustom: true,
};

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('es');
  usePreferences.setState({ byUser: {}, sync: {} });
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
  useVoices.setState({ catalog: { status: 'idle', voices: [], userId: null }, previewing: null });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('VoicePickerModal custom voices', () => {
  it('lists custom voices under "Personalizadas" with the upload panel, and deletes one after a confirm', async () => {
    const calls = stubFetch(({ method, path }) => {
      if (method === 'GET' && path === '/api/voices')
        return { body: { success: true, voices: [system, custom], message: '2 voces' } };
      if (method === 'DELETE' && path === `/api/upload/voice/${custom.id}`)
        return { body: { success: true, message: 'Voz eliminada' } };
      return undefined;
    });
    render(
      <I18nextProvider i18n={i18n}>
        <VoicePickerModal onClose={() => undefined} sessionId={null} />
      </I18nextProvider>,
    );
    const chips = await screen.findByRole('group', { name: 'Categoría' });
    await screen.findByText('Lucía');
    fireEvent.click(within(chips).getByRole('button', { name: 'Personalizadas' }));
    expect(screen.getByRole('region', { name: 'Subir tu voz' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Voces' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText(/Personalizada · aproximación/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Mi voz' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Eliminar Mi voz' });
    // Cancel keeps it; nothing is sent.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Eliminar Mi voz' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByText('Mi voz')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `/api/upload/voice/${custom.id}`,
    ]);
    expect(screen.getByText('Aún no hay voces personalizadas')).toBeTruthy();
  });
});
