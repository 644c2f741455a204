import { describe, expect, it, vi } from 'vitest';
import { isValidModelUrl, modelExists, modelUrlFor, validAvatarId } from './model.ts';

describe('avatar model URLs (spec §4 Avatar selection)', () => {
  it('a system avatar loads /models/<id>.glb; anything else the default /model.glb', () => {
    expect(modelUrlFor('witch')).toBe('/models/witch.glb');
    expect(modelUrlFor('samuraiF')).toBe('/models/samuraiF.glb');
    expect(modelUrlFor(null)).toBe('/model.glb');
    expect(modelUrlFor('es-lucia')).toBe('/model.glb');
    expect(modelUrlFor('../secret')).toBe('/model.glb');
  });

  it('an invalid stored choice falls back to the default', () => {
    expect(validAvatarId('robot')).toBe('robot');
    expect(validAvatarId('dragon')).toBeNull();
    expect(validAvatarId(undefined)).toBeNull();
  });

  it('accepts .glb paths and the custom model endpoint, refuses the rest', () => {
    expect(isValidModelUrl('/model.glb')).toBe(true);
    expect(isValidModelUrl('https://cdn.example.com/a/b.GLB')).toBe(true);
    expect(isValidModelUrl('/api/upload/avatar/abc123/model')).toBe(true);
    expect(isValidModelUrl('')).toBe(false);
    expect(isValidModelUrl('   ')).toBe(false);
    expect(isValidModelUrl(null)).toBe(false);
    expect(isValidModelUrl('/models/witch.png')).toBe(false);
    expect(isValidModelUrl('javascript:alert(1)//.glb')).toBe(false);
    expect(isValidModelUrl('ftp://x/y.glb')).toBe(false);
  });

  it('the existence check: only 404/410 say the file is gone; a network failure does not', async () => {
    const answer = (status: number) => vi.fn(() => Promise.resolve(new Response(null, { status })));
    expect(await modelExists('/models/witch.glb', answer(200) as unknown as typeof fetch)).toBe(true);
    expect(await modelExists('/models/witch.glb', answer(404) as unknown as typeof fetch)).toBe(false);
    expect(await modelExists('/models/witch.glb', answer(410) as unknown as typeof fetch)).toBe(false);
    const offline = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await modelExists('/models/witch.glb', offline as unknown as typeof fetch)).toBe(true);
    const head = answer(200);
    await modelExists('/models/elf.glb', head);
    expect(head).toHaveBeenCalledWith('/models/elf.glb', { method: 'HEAD', headers: {} });
  });
});

describe('custom avatar models (issue #7)', () => {
  it('map to their model endpoint and are fetched with the bearer credential', async () => {
    const { useSession } = await import('../../lib/session.ts');
    const { testUser } = await import('../../test/fixtures.ts');
    const id = 'avatar-0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
    expect(validAvatarId(id)).toBe(id);
    expect(modelUrlFor(id)).toBe(`/api/upload/avatar/${id}/model`);
    expect(isValidModelUrl(`/api/upload/avatar/${id}/model`)).toBe(true);
    useSession.getState().setSession({ token: 'tok', refreshToken: 'r', user: testUser });
    const head = vi.fn(() => Promise.resolve(new Response(null, { status: 200 })));
    await modelExists(`/api/upload/avatar/${id}/model`, head);
    expect(head).toHaveBeenCalledWith(`/api/upload/avatar/${id}/model`, {
      method: 'HEAD',
      headers: { authorization: 'Bearer tok' },
    });
  });
});
