import { ApiErrorSchema, SYSTEM_AVATAR_IDS, routes } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestApp } from '../../test-support/app.ts';

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
