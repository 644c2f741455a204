import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { usePreferences } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { useToasts } from '../../lib/toast.ts';
import { stubFetch, testPreferences } from '../../test/fetch.ts';
import { testUser as user } from '../../test/fixtures.ts';
import { dispatchModelError } from './model.ts';
import { selectAvatar, useAvatarSelection, type AvatarSelection } from './selection.ts';

function Probe() {
  const { avatarId, modelUrl } = useAvatarSelection();
  return <p data-testid="selection" data-avatar={avatarId ?? ''} data-url={modelUrl} />;
}

/** What the probe shows now. */
function seen(): Pick<AvatarSelection, 'avatarId' | 'modelUrl'> {
  const el = screen.getByTestId('selection');
  return { avatarId: el.dataset.avatar || null, modelUrl: el.dataset.url ?? '' };
}

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ byUser: {}, sync: {} });
  useSession.getState().setSession({ token: 't', refreshToken: 'r', user });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('avatar selection (spec §4)', () => {
  it('a stored choice whose model file is gone (HEAD 404) is removed and the default used', async () => {
    const calls = stubFetch(({ method, path }) =>
      method === 'HEAD' && path === '/models/witch.glb' ? { status: 404, body: null } : undefined,
    );
    usePreferences.getState().save('u1', { avatar: 'witch', onboardingCompleted: true });
    render(<Probe />);
    expect(seen().modelUrl).toBe('/models/witch.glb');
    await waitFor(() => expect(seen().modelUrl).toBe('/model.glb'));
    expect(calls).toContainEqual({ method: 'HEAD', path: '/models/witch.glb', body: undefined });
    expect(localStorage.getItem('selectedAvatar')).toBeNull();
    expect(usePreferences.getState().get('u1')).toMatchObject({ avatar: null, onboardingCompleted: true });
  });

  it('a present file keeps the choice', async () => {
    const calls = stubFetch(({ method }) => (method === 'HEAD' ? { body: null } : undefined));
    usePreferences.getState().save('u1', { avatar: 'elf' });
    render(<Probe />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(seen().avatarId).toBe('elf');
  });

  it('an invalid stored id shows the default without asking', () => {
    const calls = stubFetch(() => undefined);
    usePreferences.getState().save('u1', { avatar: 'dragon' });
    render(<Probe />);
    expect(seen()).toMatchObject({ avatarId: null, modelUrl: '/model.glb' });
    expect(calls).toHaveLength(0);
  });

  it('a model-load error event for the chosen avatar resets it to the default', async () => {
    stubFetch(({ method }) => (method === 'HEAD' ? { body: null } : undefined));
    usePreferences.getState().save('u1', { avatar: 'robot' });
    render(<Probe />);
    // Another avatar's failure (a preview) changes nothing.
    act(() => dispatchModelError({ error: 'notFound', avatar: 'elf', modelUrl: '/models/elf.glb' }));
    expect(seen().avatarId).toBe('robot');
    expect(useToasts.getState().toasts).toHaveLength(0);
    act(() => dispatchModelError({ error: 'timeout', avatar: 'robot', modelUrl: '/models/robot.glb' }));
    await waitFor(() => expect(seen().modelUrl).toBe('/model.glb'));
    // Said in words (SPEC ST-1): why, and that the default avatar is shown instead.
    expect(useToasts.getState().toasts.map((t) => t.text)).toEqual([
      'The avatar took too long to load. Showing the default avatar instead.',
    ]);
  });

  it('selectAvatar stores a valid id and saves selectedAvatarId; an invalid one becomes the default', async () => {
    const calls = stubFetch(({ method, body }) =>
      method === 'PUT'
        ? { body: { success: true, preferences: { ...testPreferences, ...(body as object) } } }
        : undefined,
    );
    expect(await selectAvatar('u1', 'samuraiF')).toBe('samuraiF');
    expect(localStorage.getItem('selectedAvatar')).toBe('samuraiF');
    expect(await selectAvatar('u1', 'dragon')).toBeNull();
    expect(localStorage.getItem('selectedAvatar')).toBeNull();
    expect(calls.map((c) => c.body)).toEqual([
      { avatar: 'samuraiF', selectedAvatarId: 'samuraiF' },
      { avatar: null, selectedAvatarId: null },
    ]);
  });
});
