import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskBlobStore, createLayeredBlobStore } from '../../storage/blobs.ts';
import { buildTestApp, type TestApp } from '../../test-support/app.ts';

/**
 * Reply audio served through the store MongoDB deployments get (SPEC.md M-8): a new store over the
 * folder a deployment wrote before. A file only the old folder holds is served as S-4 says.
 */
let t: TestApp;
const root = mkdtempSync(join(tmpdir(), 'alma-audio-layers-'));
const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));

beforeAll(async () => {
  mkdirSync(join(root, 'old'));
  writeFileSync(join(root, 'old', 'reply-old.mp3'), bytes);
  const audio = createLayeredBlobStore(
    createDiskBlobStore(join(root, 'new')),
    createDiskBlobStore(join(root, 'old')),
  );
  t = await buildTestApp({}, { blobs: { audio } });
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /audio/:filename over a store moving from the old folder (S-4, M-8)', () => {
  it('serves a file only the old folder holds: whole, by range, 416 past its end; 404 for none', async () => {
    const get = (name: string, range?: string) =>
      t.app.inject({ method: 'GET', url: `/audio/${name}`, headers: range ? { range } : {} });
    const whole = await get('reply-old.mp3');
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'audio/mpeg',
      'content-length': '300',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(whole.rawPayload).toEqual(bytes);
    const ranged = await get('reply-old.mp3', 'bytes=100-149');
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe('bytes 100-149/300');
    expect(ranged.rawPayload).toEqual(bytes.subarray(100, 150));
    expect((await get('reply-old.mp3', 'bytes=300-')).statusCode).toBe(416);
    expect((await get('reply-none.mp3')).statusCode).toBe(404);
  });
});
