import { ApiErrorSchema, SYSTEM_AVATAR_IDS, routes } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTRAIT_SIZE } from '../../avatars/portrait/portrait.ts';
import { buildTestApp, json, type TestApp } from '../../test-support/app.ts';
import { decodeImage } from '../../test-support/raster-image.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const request = (method: 'GET' | 'HEAD', url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers });

describe('AV-1 the system avatar catalogue', () => {
  it('GET /api/avatars answers the eight system avatars without a token', async () => {
    const res = await request('GET', '/api/avatars');
    expect(res.statusCode).toBe(200);
    const body = routes.avatars.list.response.parse(json(res));
    expect(body.avatars.map((a) => a.id)).toEqual([...SYSTEM_AVATAR_IDS]);
    for (const avatar of body.avatars) {
      expect(avatar.model).toBe(`/models/${avatar.id}.glb`);
      expect(avatar.portrait).toMatch(new RegExp(`^/portraits/${avatar.id}\\.webp\\?v=[0-9a-f]{16}$`));
      expect(['fantasy', 'sci-fi']).toContain(avatar.category);
      expect(avatar.name.length).toBeGreaterThan(0);
      expect(avatar.description.length).toBeGreaterThan(0);
    }
    expect(body.avatars.filter((a) => a.category === 'sci-fi').map((a) => a.id)).toEqual([
      'robot',
      'robotina',
    ]);
  });
});

describe('AV-7 the portraits', () => {
  it('each character and the default model has a WebP portrait, cached for good under its versioned URL', async () => {
    const body = routes.avatars.list.response.parse(json(await request('GET', '/api/avatars')));
    expect(body.defaultAvatar.model).toBe('/model.glb');
    expect(body.defaultAvatar.portrait).toMatch(/^\/portraits\/default\.webp\?v=[0-9a-f]{16}$/);
    const witch = body.avatars.find((a) => a.id === 'witch')!;
    for (const url of [witch.portrait, body.defaultAvatar.portrait]) {
      // Not drawn yet: 503 at once, drawn meanwhile (its model forged first).
      let res = await request('GET', url);
      for (let i = 0; res.statusCode === 503 && i < 600; i++) {
        expect(res.headers['retry-after']).toBe('2');
        await new Promise((r) => setTimeout(r, 200));
        res = await request('GET', url);
      }
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const image = await decodeImage(new Uint8Array(res.rawPayload));
      expect([image.width, image.height]).toEqual([PORTRAIT_SIZE, PORTRAIT_SIZE]);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.byteLength);
      const again = await request('GET', url, { 'if-none-match': String(res.headers.etag) });
      expect(again.statusCode).toBe(304);
    }
    // Without the version (or an old one) it is revalidated rather than kept.
    const bare = await request('GET', '/portraits/witch.webp?v=0000');
    expect(bare.statusCode).toBe(200);
    expect(bare.headers['cache-control']).toBe('public, no-cache');
  }, 180_000);

  it('an unknown or escaping portrait name is 404 not_found', async () => {
    for (const url of [
      '/portraits/nobody.webp',
      '/portraits/witch.png',
      '/portraits/witch',
      '/portraits/WITCH.webp',
      '/portraits/..%2Fwitch.glb',
      '/portraits/__proto__.webp',
      '/portraits/constructor.webp',
    ]) {
      const res = await request('GET', url, { accept: 'application/json' });
      expect(res.statusCode, url).toBe(404);
      expect(ApiErrorSchema.parse(json(res)).error.code, url).toBe('not_found');
    }
  });
});

describe('AV-2 serving the models', () => {
  it('GET /models/<id>.glb answers a GLB, cached for a year under its version', async () => {
    const res = await request('GET', '/models/witch.glb');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/gltf-binary');
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.byteLength);

    const again = await request('GET', '/models/witch.glb', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.byteLength).toBe(0);
  }, 120_000);

  it('HEAD checks a model exists: same headers, no body', async () => {
    const get = await request('GET', '/models/witch.glb');
    const head = await request('HEAD', '/models/witch.glb');
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.byteLength).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect((await request('HEAD', '/models/nobody.glb')).statusCode).toBe(404);
  }, 120_000);

  it('GET and HEAD /model.glb answer the default model', async () => {
    const res = await request('GET', '/model.glb');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/gltf-binary');
    expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const head = await request('HEAD', '/model.glb');
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(res.headers.etag);
  }, 120_000);

  it('an unknown or escaping name is 404 not_found in the one error shape', async () => {
    for (const url of [
      '/models/nobody.glb',
      '/models/witch.gltf',
      '/models/witch',
      '/models/default.glb',
      '/models/WITCH.glb',
      '/models/..%2Fpackage.json',
      '/models/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/models/constructor.glb',
      '/models/__proto__.glb',
    ]) {
      const res = await request('GET', url, { accept: 'application/json' });
      expect(res.statusCode, url).toBe(404);
      expect(ApiErrorSchema.parse(json(res)).error.code, url).toBe('not_found');
    }
  });
});
