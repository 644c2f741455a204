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
  portrait: `/portraits/${id}.webp?v=1`,
}));
const defaultAvatar = { model: '/model.glb', portrait: '/portraits/default.webp?v=1' };

const customAvatar = (id: string, name: string, status: 'completed' | 'failed') => ({
  id,
  name,
  description: '',
  category: 'custom',
  tags: [],
  isPublic: false,
  status,
  step: status === 'completed' ? 'stored' : 'validating',
  progress: status === 'completed' ? 100 : 20,
  startTime: '2026-01-01T00:00:00.000Z',
  estimatedTime: 5,
  isReady: status === 'completed',
  hasError: status === 'failed',
  error: status === 'failed' ? { code: 'validation_failed', message: 'El modelo tiene errores' } : null,
  modelUrl: status === 'completed' ? `/api/upload/avatar/${id}/model` : null,
  portraitUrl: status === 'completed' ? `/api/upload/avatar/${id}/portrait` : null,
  modelPath: status === 'completed' ? `/api/upload/avatar/${id}/model` : null,
  modelFilename: status === 'completed' ? `${id}.glb` : null,
  originalName: `${name}.glb`,
  rigMetadata: null,
  animationConfig: null,
  compatibility:
    status === 'completed'
      ? {
          score: 93,
          capabilities: [
            { id: 'skeleton', coverage: 1, works: true },
            { id: 'expressions', coverage: 0.3, works: false },
          ],
          works: ['skeleton'],
          missing: ['expressions'],
          warnings: [],
        }
      : null,
  compatibilityScore: status === 'completed' ? 93 : null,
  originalSize: 1000,
  processedSize: status === 'completed' ? 400 : null,
  compressionRatio: status === 'completed' ? 0.4 : null,
  isCustom: true,
  isProcessed: status === 'completed',
  processing: { status: status === 'completed' ? 'completed' : 'processing' },
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: status === 'completed' ? '2026-01-01T00:00:05.000Z' : null,
});
const READY = 'avatar-0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const FAILED = 'avatar-0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2c';

function serve(options: { failList?: boolean } = {}) {
  return stubFetch(({ method, path, body }) => {
    if (method === 'GET' && path === `/api/upload/avatars/${user.id}`)
      return {
        body: {
          success: true,
          avatars: [customAvatar(READY, 'Mi robot', 'completed'), customAvatar(FAILED, 'Roto', 'failed')],
        },
      };
    if (method === 'DELETE' && path === `/api/upload/avatar/${READY}`)
      return { body: { success: true, message: 'Avatar eliminado' } };
    if (method === 'GET' && path === '/api/avatars')
      return options.failList
        ? { status: 500, body: { error: { code: 'server_error', message: 'x' } } }
        : { body: { success: true, avatars, defaultAvatar } };
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
    // The default avatar first, then the eight, each with the portrait the server drew (AV-7).
    expect(within(group).getAllByRole('radio')).toHaveLength(9);
    const portraits = [...group.querySelectorAll('img.avatar-portrait')].map((i) => i.getAttribute('src'));
    expect(portraits).toEqual([defaultAvatar.portrait, ...avatars.map((a) => a.portrait)]);
    // Localised by id, not the server's text.
    expect(within(group).getByRole('radio', { name: /Bruja/ })).toBeTruthy();
    expect(within(group).queryByText('Server witch')).toBeNull();
    // The user's own avatars: the ready one can be chosen, with its report; a failed one cannot.
    const mine = await within(dialog).findByRole('radiogroup', { name: 'Tus avatares' });
    expect(within(mine).getByRole('radio', { name: /Mi robot/ })).toHaveProperty('disabled', false);
    expect(within(mine).getByRole('radio', { name: /Roto/ })).toHaveProperty('disabled', true);
    expect(within(mine).getByText('Compatibilidad: 93/100')).toBeTruthy();
    expect(within(mine).getByText(/El modelo tiene errores/)).toBeTruthy();
    // And the upload panel.
    expect(within(dialog).getByRole('region', { name: 'Sube tu propio avatar (.glb)' })).toBeTruthy();

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

  it('starts on the current avatar; the default avatar is chosen like any other, and is where it starts without one', async () => {
    const calls = serve();
    usePreferences.getState().save('u1', { avatar: 'golem' });
    const onClose = vi.fn();
    wrap(<AvatarSelectorModal onClose={onClose} />);
    expect(await screen.findByRole('radio', { name: /Golem/ })).toHaveProperty('checked', true);
    const alma = screen.getByRole('radio', { name: /^Alma Predeterminado/ });
    expect(alma).toHaveProperty('checked', false);
    fireEvent.click(alma);
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/users/preferences',
      body: { avatar: null, selectedAvatarId: null },
    });
    cleanup();
    wrap(<AvatarSelectorModal onClose={() => undefined} />);
    expect(await screen.findByRole('radio', { name: /^Alma Predeterminado · Actual/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByRole('button', { name: 'Confirmar' })).toHaveProperty('disabled', false);
  });
});

describe('custom avatars in the selector (issue #7)', () => {
  it('chooses a ready custom avatar and stores its id', async () => {
    const calls = serve();
    const onClose = vi.fn();
    wrap(<AvatarSelectorModal onClose={onClose} />);
    fireEvent.click(await screen.findByRole('radio', { name: /Mi robot/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toContainEqual({
      method: 'PUT',
      path: '/api/users/preferences',
      body: { avatar: READY, selectedAvatarId: READY },
    });
  });

  it('deletes one after a confirmation', async () => {
    const calls = serve();
    wrap(<AvatarSelectorModal onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Eliminar Mi robot' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Sí, eliminar Mi robot' }));
    await waitFor(() => expect(screen.queryByRole('radio', { name: /Mi robot/ })).toBeNull());
    expect(calls).toContainEqual({ method: 'DELETE', path: `/api/upload/avatar/${READY}`, body: undefined });
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
