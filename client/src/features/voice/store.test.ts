import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Voice } from '@alma/protocol';
import { usePreferences } from '../../lib/preferences.ts';
import { stubFetch, testPreferences } from '../../test/fetch.ts';
import { useVoices } from './store.ts';

const voice: Voice = {
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

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ byUser: {}, sync: {} });
  useVoices.setState({ catalog: { status: 'idle', voices: [], userId: null }, favorites: [], recents: [] });
});
afterEach(() => vi.unstubAllGlobals());

describe('the voice store', () => {
  it('keeps one user’s catalogue on screen while it is fetched again, never another user’s', async () => {
    stubFetch(({ path }) =>
      path === '/api/voices' ? { body: { success: true, voices: [voice], message: '' } } : undefined,
    );
    await useVoices.getState().load('u1');
    expect(useVoices.getState().catalog).toEqual({ status: 'ready', voices: [voice], userId: 'u1' });
    const again = useVoices.getState().load('u1');
    expect(useVoices.getState().catalog.status).toBe('ready');
    await again;
    const other = useVoices.getState().load('u2');
    expect(useVoices.getState().catalog).toEqual({ status: 'loading', voices: [], userId: 'u2' });
    await other;
  });

  it('favourites and recents live in local storage (spec §3)', async () => {
    useVoices.getState().toggleFavorite('es-lucia');
    expect(localStorage.getItem('favoriteVoices')).toBe('["es-lucia"]');
    const calls = stubFetch(({ method, path, body }) => {
      if (method === 'POST' && path === '/api/voices/select') return { body: { success: true, voice } };
      if (method === 'PUT' && path === '/api/users/preferences')
        return { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } };
      return undefined;
    });
    expect(await useVoices.getState().choose('es-lucia', { userId: 'u1', sessionId: 's1' })).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/voices/select',
      'PUT /api/users/preferences',
    ]);
    expect(calls[0]?.body).toEqual({ voiceId: 'es-lucia', sessionId: 's1' });
    expect(localStorage.getItem('recentVoices')).toBe('["es-lucia"]');
    expect(localStorage.getItem('selectedVoice')).toBe('es-lucia');
    expect(usePreferences.getState().get('u1').voice).toBe('es-lucia');
  });

  it('a choice the server cannot take is kept on this device and reported', async () => {
    stubFetch(() => ({ status: 500, body: { error: { code: 'server_error', message: 'x' } } }));
    expect(await useVoices.getState().choose('es-lucia', { userId: 'u1', sessionId: null })).toBe(false);
    expect(usePreferences.getState().get('u1').voice).toBe('es-lucia');
  });
});
