import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AVATAR_FAILURE_MESSAGES, ERROR_MESSAGES, REEXPORT_HINT, type CustomAvatar } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';
import { notGlb, REAL_WORLD_VARIANTS, TEST_MODELS } from '../../test-support/glb-models.ts';
import { outOfRangeIndices } from '../../test-support/hostile-glb.ts';
import { multipartBody } from '../../test-support/multipart.ts';
import { createDiskBlobStore } from '../../storage/blobs.ts';

/** The files left under a folder, whatever the subfolder (each instance has its own: M-7). */
const filesUnder = (path: string) =>
  readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/**
 * Custom avatar uploads over REST (SPEC.md AU-1…AU-9) with the generated test models of issue
 * #7: each real-world shape gets its status, score and report; broken files get the spec's
 * message and leave nothing stored. Processing runs on real worker threads. The avatars' files
 * are kept in a blob store of their own, in a folder outside DATA_DIR (SPEC.md M-8): every route
 * here serves what that store holds, and only uploads arriving stay under DATA_DIR.
 */
// Every job runs on a real worker thread: on a busy 2-core machine one takes up to a minute.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
/** The avatars' blob store's folder. */
let dir: string;

interface Account {
  id: string;
  token: string;
}
let n = 0;
async function register(): Promise<Account> {
  n += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: `Usuario ${n}`, email: `avatars${n}@example.com` }),
  });
  const body = json(res) as { token: string; user: { id: string } };
  return { id: body.user.id, token: body.token };
}

const auth = (who: Account, language = 'es') => ({
  authorization: `Bearer ${who.token}`,
  'accept-language': language,
});

function upload(
  who: Account,
  name: string,
  data: Uint8Array,
  fields: Record<string, string> = {},
  language = 'es',
) {
  const body = multipartBody(fields, { field: 'avatar', name, data });
  return t.app.inject({
    method: 'POST',
    url: '/api/upload/avatar',
    payload: body.payload,
    headers: { ...auth(who, language), 'content-type': body.contentType },
  });
}
const get = (who: Account, url: string, method: 'GET' | 'HEAD' | 'POST' | 'DELETE' = 'GET') =>
  t.app.inject({ method, url, headers: auth(who) });

async function settled(who: Account, id: string): Promise<CustomAvatar> {
  for (let i = 0; i < 2400; i++) {
    const avatar = (json(await get(who, `/api/upload/avatar/${id}`)) as { avatar: CustomAvatar }).avatar;
    if (!['pending', 'processing'].includes(avatar.status)) return avatar;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`avatar ${id} still processing`);
}

/** Files of finished avatars only: nothing half-received, nothing orphaned. */
const files = () => (existsSync(dir) ? readdirSync(dir) : []);
/** This instance's local folders: uploads arriving and jobs' working copies, nothing else. */
const local = () => join(t.dataDir, 'custom-avatars');
const incoming = () => (existsSync(join(local(), 'incoming')) ? filesUnder(join(local(), 'incoming')) : []);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'alma-avatar-store-'));
  t = await buildTestApp({}, { blobs: { 'custom-avatars': createDiskBlobStore(dir) } });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('uploading real-world model shapes (AU-1, AU-3)', () => {
  const expected = {
    mixamo: { rigType: 'mixamo', basePose: 'T', score: 60, lipSync: 'jaw' },
    readyPlayerMe: { rigType: 'humanoid', basePose: 'T', score: 93, lipSync: 'visemes' },
    aPose: { rigType: 'humanoid', basePose: 'A', score: 93, lipSync: 'visemes' },
    noFaceMorphs: { rigType: 'humanoid', basePose: 'T', score: 60, lipSync: 'jaw' },
    staticMesh: { rigType: 'custom', basePose: 'unknown', score: 0, lipSync: 'none' },
    bigTexture: { rigType: 'humanoid', basePose: 'T', score: 80, lipSync: 'visemes' },
  } as const;

  for (const [shape, want] of Object.entries(expected) as [
    keyof typeof TEST_MODELS,
    (typeof expected)['mixamo'],
  ][]) {
    it(`${shape}: accepted as pending at once, then completed with its report`, async () => {
      const who = await register();
      const bytes = await TEST_MODELS[shape]();
      const res = await upload(who, `${shape}.glb`, bytes, { name: `Mi ${shape}`, tags: 'a, b' });
      expect(res.statusCode).toBe(202);
      const created = (json(res) as { avatar: CustomAvatar }).avatar;
      expect(created).toMatchObject({
        status: 'pending',
        progress: 0,
        isReady: false,
        category: 'custom',
        isPublic: false,
      });
      expect(created.tags).toEqual(['a', 'b']);

      const done = await settled(who, created.id);
      expect(done.status).toBe('completed');
      expect(done).toMatchObject({
        progress: 100,
        isReady: true,
        isProcessed: true,
        modelUrl: `/api/upload/avatar/${created.id}/model`,
        originalSize: bytes.length,
        compatibilityScore: want.score,
      });
      expect(done.rigMetadata).toMatchObject({ rigType: want.rigType, basePose: want.basePose });
      expect(done.animationConfig?.lipSync).toBe(want.lipSync);
      expect(done.processedSize).toBeGreaterThan(0);

      const model = await get(who, done.modelUrl ?? '');
      expect(model.statusCode).toBe(200);
      expect(model.headers['content-type']).toBe('model/gltf-binary');
      expect(model.rawPayload.subarray(0, 4).toString('ascii')).toBe('glTF');
      expect(model.rawPayload.length).toBe(done.processedSize);
      // Served from the store, which holds the model; DATA_DIR keeps only its empty local folders.
      expect(model.rawPayload).toEqual(readFileSync(join(dir, `${created.id}.glb`)));
      expect(readdirSync(local())).toEqual(['incoming']);
      expect(incoming()).toEqual([]);
      expect((await get(who, done.modelUrl ?? '', 'HEAD')).statusCode).toBe(200);
      // Its portrait for the picker (AV-7), its owner's alone; a flat disc has no face to draw.
      expect(done.portraitUrl).toBe(`/api/upload/avatar/${created.id}/portrait`);
      const portrait = await get(who, done.portraitUrl ?? '');
      if (shape === 'staticMesh') expect(portrait.statusCode).toBe(404);
      else {
        expect(portrait.statusCode).toBe(200);
        expect(portrait.headers['content-type']).toBe('image/webp');
        expect(portrait.headers['cache-control']).toBe('private, max-age=31536000, immutable');
        expect(portrait.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');
        expect(portrait.rawPayload).toEqual(readFileSync(join(dir, `${created.id}.portrait.webp`)));
      }
      // Only the optimised model stays; the upload as received goes just after the record says
      // completed (a crash between the two must leave a completed avatar), so it is waited for.
      expect(files()).toContain(`${created.id}.glb`);
      await expect.poll(() => files(), { timeout: 10_000 }).not.toContain(`${created.id}.upload.glb`);
    });
  }

  it("a model the validator refuses fails at the validating step, with the validator's findings in es and en (AU-12)", async () => {
    const who = await register();
    const res = await upload(who, 'roto.glb', outOfRangeIndices());
    expect(res.statusCode).toBe(202);
    const done = await settled(who, (json(res) as { avatar: CustomAvatar }).avatar.id);
    expect(done).toMatchObject({ status: 'failed', hasError: true, isReady: false, modelUrl: null });
    expect(done.step).toBe('validating');
    expect(done.error).toEqual({
      code: 'validation_failed',
      message: AVATAR_FAILURE_MESSAGES.es.validation_failed,
      details: [
        'Triángulos que apuntan a vértices que no existen (ACCESSOR_INDEX_OOB): 1 vez, la primera en /meshes/0/primitives/0/indices.',
        REEXPORT_HINT.es,
      ],
    });
    const en = await t.app.inject({
      method: 'GET',
      url: `/api/upload/avatar/${done.id}/status`,
      headers: auth(who, 'en'),
    });
    expect((json(en) as { avatar: CustomAvatar }).avatar.error?.details).toEqual([
      "Triangles that point to vertices that don't exist (ACCESSOR_INDEX_OOB): 1 time, first at /meshes/0/primitives/0/indices.",
      REEXPORT_HINT.en,
    ]);
    // The upload goes just after the record says failed, so it is waited for.
    await expect.poll(() => files().filter((f) => f.startsWith(done.id)), { timeout: 10_000 }).toEqual([]);
    expect((await get(who, `/api/upload/avatar/${done.id}/model`)).statusCode).toBe(409);
  });

  it('skin weights that do not add up to 1 are repaired: accepted, and the report lists the repair (AU-12)', async () => {
    const who = await register();
    const res = await upload(who, 'pesos.glb', await REAL_WORLD_VARIANTS.unnormalisedWeights());
    const done = await settled(who, (json(res) as { avatar: CustomAvatar }).avatar.id);
    expect(done.status).toBe('completed');
    expect(done.compatibility?.repaired).toEqual([{ code: 'ACCESSOR_WEIGHTS_NON_NORMALIZED', count: 448 }]);
    expect(done.compressionRatio).toBeLessThanOrEqual(1);
  });
});

describe('refused uploads leave nothing stored (spec §5)', () => {
  it.each([
    ['a non-glTF file named .glb', 'modelo.glb', notGlb()],
    ['a model not named .glb', 'modelo.gltf', null],
    ['an empty .glb', 'vacio.glb', new Uint8Array(0)],
  ])('%s → 415 "Solo se permiten archivos .glb para avatares"', async (_, name, data) => {
    const who = await register();
    const before = files();
    const res = await upload(who, name, data ?? (await TEST_MODELS.mixamo()));
    expect(res.statusCode).toBe(415);
    expect((json(res) as { error: { message: string } }).error.message).toBe(
      ERROR_MESSAGES.es.avatar_format_invalid,
    );
    expect(files()).toEqual(before);
    expect(incoming()).toEqual([]);
    const list = json(await get(who, `/api/upload/avatars/${who.id}`)) as { avatars: unknown[] };
    expect(list.avatars).toEqual([]);
  });

  it('an oversize file → 413 "El archivo es demasiado grande. Máximo 50MB", in English too', async () => {
    const who = await register();
    const before = files();
    const big = new Uint8Array(52_428_800 + 1);
    big.set(await TEST_MODELS.mixamo());
    const res = await upload(who, 'grande.glb', big);
    expect(res.statusCode).toBe(413);
    expect((json(res) as { error: { message: string } }).error.message).toBe(
      'El archivo es demasiado grande. Máximo 50MB',
    );
    const en = await upload(who, 'grande.glb', big, {}, 'en');
    expect((json(en) as { error: { message: string } }).error.message).toBe(
      'The file is too large. Maximum 50MB',
    );
    expect(files()).toEqual(before);
    expect(incoming()).toEqual([]);
  });

  it('a third avatar on the free plan is refused before the file is read', async () => {
    const who = await register();
    for (const i of [1, 2]) {
      const res = await upload(who, `a${i}.glb`, await TEST_MODELS.mixamo());
      await settled(who, (json(res) as { avatar: CustomAvatar }).avatar.id);
    }
    const third = await upload(who, 'a3.glb', await TEST_MODELS.mixamo());
    expect(third.statusCode).toBe(403);
    expect((json(third) as { error: { message: string } }).error.message).toBe(
      ERROR_MESSAGES.es.avatar_limit_reached,
    );
    const limits = json(await get(who, '/api/upload/subscription-limits')) as {
      subscription: {
        usage: { customAvatars: number; avatarStorageBytes: number };
        canUploadAvatar: boolean;
      };
    };
    expect(limits.subscription.usage.customAvatars).toBe(2);
    expect(limits.subscription.usage.avatarStorageBytes).toBeGreaterThan(0);
    expect(limits.subscription.canUploadAvatar).toBe(false);
  });

  it('rejects fields that break the rules with field errors', async () => {
    const who = await register();
    const before = files();
    const res = await upload(who, 'a.glb', await TEST_MODELS.mixamo(), { name: 'x'.repeat(61) });
    expect(res.statusCode).toBe(400);
    expect((json(res) as { error: { errors: { field: string }[] } }).error.errors[0]?.field).toBe('name');
    expect(files()).toEqual(before);
    expect(incoming()).toEqual([]);
  });
});

describe('ownership (AU-6)', () => {
  it('another user cannot read, fetch, cancel, list or delete an avatar', async () => {
    const owner = await register();
    const other = await register();
    const res = await upload(owner, 'mio.glb', await TEST_MODELS.readyPlayerMe());
    const { id } = (json(res) as { avatar: CustomAvatar }).avatar;
    await settled(owner, id);
    for (const [method, url] of [
      ['GET', `/api/upload/avatar/${id}`],
      ['GET', `/api/upload/avatar/${id}/status`],
      ['GET', `/api/upload/avatar/${id}/model`],
      ['HEAD', `/api/upload/avatar/${id}/model`],
      ['GET', `/api/upload/avatar/${id}/portrait`],
      ['HEAD', `/api/upload/avatar/${id}/portrait`],
      ['POST', `/api/upload/avatar/${id}/cancel`],
      ['DELETE', `/api/upload/avatar/${id}`],
    ] as const) {
      expect((await get(other, url, method)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await get(other, `/api/upload/avatars/${owner.id}`)).statusCode).toBe(403);
    const model = await t.app.inject({ method: 'GET', url: `/api/upload/avatar/${id}/model` });
    expect(model.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/upload/avatar/${id}/portrait` })).statusCode).toBe(
      401,
    );
    expect((await get(owner, `/api/upload/avatar/${id}/model`)).statusCode).toBe(200);
    expect((await get(owner, `/api/upload/avatar/${id}/portrait`)).statusCode).toBe(200);
  });

  it('the owner deletes it: record and files go, the slot comes back', async () => {
    const who = await register();
    const res = await upload(who, 'borrar.glb', await TEST_MODELS.mixamo());
    const { id } = (json(res) as { avatar: CustomAvatar }).avatar;
    await settled(who, id);
    expect(files()).toContain(`${id}.glb`);
    expect(files()).toContain(`${id}.portrait.webp`);
    const del = await get(who, `/api/upload/avatar/${id}`, 'DELETE');
    expect(json(del)).toEqual({ success: true, message: 'Avatar eliminado' });
    expect(files().filter((f) => f.startsWith(id))).toEqual([]);
    expect((await get(who, `/api/upload/avatar/${id}`)).statusCode).toBe(404);
    expect(
      (json(await get(who, '/api/upload/processing-stats')) as { stats: { completed: number } }).stats
        .completed,
    ).toBe(0);
  });
});

describe('the compatibility check (spec §7)', () => {
  it('scores a model without storing anything', async () => {
    const who = await register();
    const before = files();
    const body = multipartBody(
      {},
      { field: 'model', name: 'prueba.glb', data: await TEST_MODELS.readyPlayerMe() },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/avatar/compatibility-check',
      payload: body.payload,
      headers: { ...auth(who), 'content-type': body.contentType },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      success: true,
      compatibility: { score: 93 },
      rigMetadata: { rigType: 'humanoid' },
    });
    expect(files()).toEqual(before);
    expect(incoming()).toEqual([]);
    expect((json(await get(who, `/api/upload/avatars/${who.id}`)) as { avatars: unknown[] }).avatars).toEqual(
      [],
    );
  });

  it('says what an upload would repair (AU-9, AU-12)', async () => {
    const who = await register();
    const body = multipartBody(
      {},
      { field: 'model', name: 'pesos.glb', data: await REAL_WORLD_VARIANTS.unnormalisedWeights() },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/avatar/compatibility-check',
      payload: body.payload,
      headers: { ...auth(who), 'content-type': body.contentType },
    });
    expect(res.statusCode).toBe(200);
    expect((json(res) as { compatibility: { repaired: unknown } }).compatibility.repaired).toEqual([
      { code: 'ACCESSOR_WEIGHTS_NON_NORMALIZED', count: 448 },
    ]);
  });
});
