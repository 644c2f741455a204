import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { SYSTEM_AVATAR_IDS } from '@alma/protocol';
import { i18n } from '../../../lib/i18n.ts';
import { usePreferences } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { stubFetch, testPreferences } from '../../../test/fetch.ts';
import { testUser as user } from '../../../test/fixtures.ts';
import { AvatarSelectorModal, EmbeddedAvatarSelector } from './AvatarSelector.tsx';
import { avatarCategory, confirmedChoice, initialChoice } from './logic.ts';
import { clearAvatarCatalogCache } from './use-avatar-catalog.ts';

const avatars = SYSTEM_AVATAR_IDS.map((id) => ({
  id,
  name: `Server ${id}`,
  description: `About ${id}`,
  category: id.startsWith('robot') ? 'sci-fi' : 'fantasy',
  model: `/models/${id}.glb`,
}));

function serve(options: { failList?: boolean } = {}) {
  return stubFetch(({ method, path, body }) => {
    if (method === 'GET' && path === '/api/avatars')
      return options.failList
        ? { status: 500, body: { error: { code: 'server_error', message: 'x' } } }
        : { body: { success: true, avatars } };
    if (method === 'PUT' && path === '/api/users/preferences')
      return { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } };
    return undefined;
  });
}

const wrap = (ui: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

beforeEach(async () => {
  localStorage.clear();
  clearAvatarCatalogCache();
  await i18n.changeLanguage('es');
  usePreferences.setState({ byUser: {}, sync: {} });
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('selector logic', () => {
  it('starts on the stored choice only when the list has it', () => {
    expect(initialChoice('elf', avatars)).toBe('elf');
    expect(initialChoice('dragon', avatars)).toBeNull();
    expect(initialChoice(null, avatars)).toBeNull();
  });

  it('a confirm outside the list stores the default (null)', () => {
    expect(confirmedChoice('witch', avatars)).toBe('witch');
    expect(confirmedChoice('dragon', avatars)).toBeNull();
  });

  it('a missing category reads as general (spec §3)', () => {
    expect(avatarCategory({ category: 'sci-fi' })).toBe('sci-fi');
    expect(avatarCategory({})).toBe('general');
    expect(avatarCategory({ category: 'weird' })).toBe('general');
  });
});

describe('avatar selector modal (spec §2, §4)', () => {
  it('lists the system avatars with localised names, previews one in 3D and saves the choice', async () => {
    const calls = serve();
    const onClose = vi.fn();
    wrap(<AvatarSelectorModal onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Elige tu avatar' });
    const group = await within(dialog).findByRole('radiogroup', { name: 'Avatares del sistema' });
    expect(within(group).getAllByRole('radio')).toHaveLength(8);
    // Localised by id, not the server's text.
    expect(within(group).getByRole('radio', { name: /Bruja/ })).toBeTruthy();
    expect(within(group).queryByText('Server witch')).toBeNull();
    // The custom slot is there but disabled.
    expect(within(dialog).getByRole('button', { name: 'Subir un modelo .glb' })).toHaveProperty(
      'disabled',
      true,
    );

    fireEvent.click(within(group).getByRole('button', { name: 'Ver Mujer ciervo en 3D' }));
    const preview = screen.getByRole('dialog', { name: 'Previsualización 3D: Mujer ciervo' });
    expect(within(preview).getByRole('button', { name: 'Restablecer vista' })).toBeTruthy();
    expect(within(preview).getByRole('button', { name: 'Girar 90°' })).toBeTruthy();
    // jsdom has no WebGL: the viewer shows its static fallback.
    expect(within(preview).getByText('Vista 3D no disponible en este momento.')).toBeTruthy();

    // Escape closes the preview only.
    fireEvent.keyDown(within(preview).getByRole('button', { name: 'Girar 90°' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: /Previsualización 3D/ })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Elige tu avatar' })).toBeTruthy();

    fireEvent.click(within(group).getByRole('radio', { name: /Elfa/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/users/preferences',
      body: { avatar: 'elf', selectedAvatarId: 'elf' },
    });
    expect(localStorage.getItem('selectedAvatar')).toBe('elf');
    expect(usePreferences.getState().get('u1').avatar).toBe('elf');
  });

  it('confirming in the preview chooses that avatar', async () => {
    const calls = serve();
    const onClose = vi.fn();
    wrap(<AvatarSelectorModal onClose={onClose} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Ver Robotina en 3D' }));
    fireEvent.click(screen.getByRole('button', { name: 'Elegir este avatar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(
      calls.some((c) => c.method === 'PUT' && (c.body as { avatar?: string }).avatar === 'robotina'),
    ).toBe(true);
  });

  it('starts on the current avatar and keeps confirm disabled without a choice', async () => {
    serve();
    usePreferences.getState().save('u1', { avatar: 'golem' });
    wrap(<AvatarSelectorModal onClose={() => undefined} />);
    expect(await screen.findByRole('radio', { name: /Golem/ })).toHaveProperty('checked', true);
    cleanup();
    usePreferences.getState().save('u1', { avatar: null });
    wrap(<AvatarSelectorModal onClose={() => undefined} />);
    await screen.findByRole('radio', { name: /Golem/ });
    expect(screen.getByRole('button', { name: 'Confirmar' })).toHaveProperty('disabled', true);
  });
});

describe('embedded selector (onboarding)', () => {
  it('offers a retry when the list fails', async () => {
    serve({ failList: true });
    const onChange = vi.fn();
    wrap(<EmbeddedAvatarSelector value={null} onChange={onChange} />);
    expect((await screen.findByRole('alert')).textContent).toBe('No se pudieron cargar los avatares.');
    serve();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    fireEvent.click(await screen.findByRole('radio', { name: /Vampiresa/ }));
    expect(onChange).toHaveBeenCalledWith('vampireF');
  });
});
