import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  ERROR_MESSAGES,
  ERROR_STATUS,
  MODEL_FINDING_CODE,
  type CustomAvatar,
  type ErrorBody,
  type Language,
} from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, json, registrationBody, type TestApp } from '../../test-support/app.ts';
import { TEST_MODELS } from '../../test-support/glb-models.ts';
import { HOSTILE_MODELS, outOfRangeIndices, sparseBomb } from '../../test-support/hostile-glb.ts';
import { multipartParts } from '../../test-support/multipart.ts';

/** The files left under a folder, whatever the subfolder (each instance has its own: M-7). */
const filesUnder = (path: string) =>
  readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

/**
 * Uploads that cannot take the server down (issue 11; SPEC.md AU-1, AU-9, AU-10, AU-11): every
 * file of the hostile corpus is refused at once with its status, code and reasons in Spanish and
 * English, leaving no record, no file and no slot; a malformed request stores nothing; the
 * compatibility check holds a slot and judges a .glb as a .glb. Real worker threads throughout.
 */
// Every job runs on a real worker thread: on a busy 2-core machine one takes up to a minute.
vi.setConfig({ testTimeout: 180_000 });

let t: TestApp;
let dir: string;
let n = 0;

interface Account {
  id: string;
  token: string;
}
async function register(): Promise<Account> {
  n += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: `Hostil ${n}`, email: `hostile${n}@example.com` }),
  });
  const body = json(res) as { token: string; user: { id: string } };
  return { id: body.user.id, token: body.token };
}

type Part = Parameters<typeof multipartParts>[0][number];
function send(who: Account, parts: Part[], language: Language = 'es', url = '/api/upload/avatar') {
  const body = multipartParts(parts);
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: {
      authorization: `Bearer ${who.token}`,
      'accept-language': language,
      'content-type': body.contentType,
    },
  });
}
const avatarPart = (data: Uint8Array, name = 'modelo.glb'): Part => ({ field: 'avatar', name, data });
const errorOf = (res: { body: string }) => (json(res) as { error: ErrorBody }).error;
const get = (who: Account, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.token}` } });

const storedFiles = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f !== 'incoming') : []);
/**
 * The avatar ids files belong to (`<id>.upload.glb` becomes `<id>.glb` as others' jobs finish, and
 * a finished job leaves its `<id>.portrait.webp` beside it, SPEC.md AV-7).
 */
const fileIds = (files: string[]) =>
  [...new Set(files.map((f) => f.replace(/((\.upload)?\.glb|\.portrait\.webp)$/, '')))].sort();

/** No record, no new file, no slot held: what a refusal must leave. */
async function expectNothingStored(who: Account, filesBefore: string[]) {
  expect(fileIds(storedFiles())).toEqual(fileIds(filesBefore));
  expect(existsSync(join(dir, 'incoming')) ? filesUnder(join(dir, 'incoming')) : []).toEqual([]);
  expect((json(await get(who, `/api/upload/avatars/${who.id}`)) as { avatars: unknown[] }).avatars).toEqual(
    [],
  );
  const limits = json(await get(who, '/api/upload/subscription-limits')) as {
    subscription: { usage: { customAvatars: number; currentProcessingUploads: number } };
  };
  expect(limits.subscription.usage).toMatchObject({ customAvatars: 0, currentProcessingUploads: 0 });
}

async function settled(who: Account, id: string): Promise<CustomAvatar> {
  for (let i = 0; i < 2400; i++) {
    const avatar = (json(await get(who, `/api/upload/avatar/${id}`)) as { avatar: CustomAvatar }).avatar;
    if (!['pending', 'processing'].includes(avatar.status)) return avatar;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`avatar ${id} still processing`);
}

beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' });
  dir = join(t.dataDir, 'custom-avatars');
});
afterAll(() => t.close());

describe('the hostile corpus is refused before any work, storing nothing (AU-10)', () => {
  let who: Account;
  beforeAll(async () => {
    who = await register();
  });

  it.each(Object.entries(HOSTILE_MODELS))('%s', async (_, { build, reason }) => {
    const bytes = build();
    const before = storedFiles();
    const code = MODEL_FINDING_CODE[reason];
    const reasons: Record<Language, string> = { es: '', en: '' };
    for (const language of ['es', 'en'] as const) {
      for (const [url, field] of [
        ['/api/upload/avatar', 'avatar'],
        ['/api/upload/avatar/compatibility-check', 'model'],
      ] as const) {
        const res = await send(who, [{ field, name: 'hostil.glb', data: bytes }], language, url);
        expect(res.statusCode, url).toBe(ERROR_STATUS[code]);
        const error = errorOf(res);
        expect(error).toMatchObject({ code, message: ERROR_MESSAGES[language][code] });
        expect(error.errors?.[0]).toMatchObject({ field, code: reason });
        reasons[language] = error.errors?.[0]?.message ?? '';
      }
      await expectNothingStored(who, before);
    }
    expect(reasons.es).not.toBe(reasons.en);
  });

  it("the 516-byte bomb is refused at once, while another user's upload sent with it completes", async () => {
    const [attacker, bystander] = [await register(), await register()];
    const before = storedFiles();
    const [bomb, fine] = await Promise.all([
      send(attacker, [avatarPart(sparseBomb(), 'bomba.glb')]),
      send(bystander, [avatarPart(await TEST_MODELS.readyPlayerMe(), 'mio.glb')]),
    ]);
    expect(bomb.statusCode).toBe(422);
    expect(errorOf(bomb)).toMatchObject({
      code: 'avatar_too_complex',
      errors: [
        {
          field: 'avatar',
          code: 'accessor_too_large',
          message:
            'El accesor 0 declara 1.073.741.824 elementos sin datos que los respalden (máximo 4.000.000).',
        },
        expect.anything(),
        expect.anything(),
      ],
    });
    expect(fine.statusCode).toBe(202);
    const done = await settled(bystander, (json(fine) as { avatar: CustomAvatar }).avatar.id);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    await expectNothingStored(attacker, [...before, `${done.id}.glb`]);
  });
});

describe('a malformed request stores nothing (AU-11)', () => {
  it.each([
    ['two avatar files', (m: Uint8Array) => [avatarPart(m), avatarPart(m, 'otro.glb')]],
    [
      'an avatar and a second file of another name',
      (m: Uint8Array) => [avatarPart(m), { field: 'model', name: 'b.glb', data: m }],
    ],
    [
      'too many fields',
      (m: Uint8Array) => [
        avatarPart(m),
        ...Array.from({ length: 11 }, (_, i) => ({ field: `f${i}`, value: 'x' })),
      ],
    ],
    [
      'a name over 60 characters sent after the file',
      (m: Uint8Array) => [avatarPart(m), { field: 'name', value: 'x'.repeat(61) }],
    ],
  ])(
    '%s → 400, no record, no file, no slot',
    async (_, parts) => {
      const who = await register();
      const before = storedFiles();
      const res = await send(who, [...parts(await TEST_MODELS.mixamo())]);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('validation_failed');
      await expectNothingStored(who, before);
      // The slot is free: a well-formed upload goes through at once.
      const again = await send(who, [avatarPart(await TEST_MODELS.mixamo())]);
      expect(again.statusCode).toBe(202);
      await settled(who, (json(again) as { avatar: CustomAvatar }).avatar.id);
    },
    60_000,
  );
});

describe('the compatibility check (AU-9)', () => {
  const check = (who: Account, data: Uint8Array, language: Language = 'es') =>
    send(
      who,
      [{ field: 'model', name: 'prueba.glb', data }],
      language,
      '/api/upload/avatar/compatibility-check',
    );

  it("holds one of the user's processing slots while it runs", async () => {
    const who = await register(); // free plan: one upload or check at a time
    const model = await TEST_MODELS.readyPlayerMe();
    const [first, second] = await Promise.all([check(who, model), check(who, model)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 429]);
    const refused = first.statusCode === 429 ? first : second;
    expect(errorOf(refused)).toMatchObject({
      code: 'upload_concurrency_limit',
      message: ERROR_MESSAGES.es.upload_concurrency_limit,
    });
    const [upload, during] = await Promise.all([send(who, [avatarPart(model)]), check(who, model)]);
    expect([upload.statusCode, during.statusCode].sort()).toEqual([202, 429]);
    if (upload.statusCode === 202) await settled(who, (json(upload) as { avatar: CustomAvatar }).avatar.id);
  });

  it('judges a .glb as a .glb: a model the validator refuses is a 422 with its reason, not "only .glb"', async () => {
    const who = await register();
    const before = storedFiles();
    const res = await check(who, outOfRangeIndices(), 'en');
    expect(res.statusCode).toBe(422);
    expect(errorOf(res)).toMatchObject({
      code: 'avatar_model_invalid',
      errors: [
        {
          field: 'model',
          code: 'validator_error',
          message:
            "Triangles that point to vertices that don't exist (ACCESSOR_INDEX_OOB): 1 time, first at /meshes/0/primitives/0/indices.",
        },
        { field: 'model', code: 'reexport_hint' },
      ],
    });
    expect(errorOf(res).message).not.toBe(ERROR_MESSAGES.en.avatar_format_invalid);
    await expectNothingStored(who, before);
  });
});
