import { ApiErrorSchema, AuthSessionSchema, PreferencesSchema, type AuthSession } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../storage/types.ts';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';
import { captureMailer } from '../../test-support/mail.ts';

let t: TestApp;
let ana: AuthSession;
let bob: AuthSession;

async function register(email: string): Promise<AuthSession> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: 'Someone', email }),
  });
  return AuthSessionSchema.parse(json(res));
}

beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { mailer: captureMailer() });
  ana = await register('prefs-ana@example.com');
  bob = await register('prefs-bob@example.com');
});
afterAll(async () => t.close());

const bearer = (s: AuthSession) => ({ authorization: `Bearer ${s.token}` });
const get = (s: AuthSession) =>
  t.app.inject({ method: 'GET', url: '/api/users/preferences', headers: bearer(s) });
const put = (s: AuthSession, payload: unknown, language = 'en') =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/preferences',
    headers: { ...bearer(s), 'accept-language': language },
    payload: payload as object,
  });
const prefsOf = (res: { body: string }) =>
  PreferencesSchema.parse((json(res) as { preferences: unknown }).preferences);
const onboarding = (s: AuthSession) =>
  t.app.inject({ method: 'GET', url: '/api/users/onboarding-status', headers: bearer(s) });

describe('preferences', () => {
  it('GET /api/users/preferences starts with the defaults', async () => {
    const res = await get(ana);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, preferences: DEFAULT_PREFERENCES });
  });

  it('PUT merges what is given and returns the whole preferences', async () => {
    const res = await put(ana, { avatar: 'witch', voice: 'es-female-1', personality: 'creative' });
    expect(res.statusCode).toBe(200);
    expect(prefsOf(res)).toEqual({
      ...DEFAULT_PREFERENCES,
      avatar: 'witch',
      voice: 'es-female-1',
      personality: 'creative',
    });
    const more = await put(ana, { selectedAvatarId: 'elf', defaultVoiceId: 'v-2', avatar: null });
    expect(prefsOf(more)).toMatchObject({
      avatar: null,
      voice: 'es-female-1',
      selectedAvatarId: 'elf',
      defaultVoiceId: 'v-2',
    });
    expect(prefsOf(await get(ana))).toEqual(prefsOf(more));
  });

  it('PUT with a theme keeps the account theme in sync', async () => {
    await put(ana, { theme: 'auto' });
    const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(ana) });
    expect((json(me) as { user: { theme: string } }).user.theme).toBe('auto');
  });

  it('GET /api/users/onboarding-status follows onboardingCompleted', async () => {
    expect(json(await onboarding(ana))).toEqual({ success: true, onboardingCompleted: false });
    await put(ana, { onboardingCompleted: true });
    expect(json(await onboarding(ana))).toEqual({ success: true, onboardingCompleted: true });
  });

  it.each([
    ['en', { personality: 'evil' }, 'personality', 'This value is not valid'],
    ['es', { theme: 'blue' }, 'theme', 'Este valor no es válido'],
    ['en', { onboardingCompleted: 'yes' }, 'onboardingCompleted', 'This value is not valid'],
    ['es', { avatar: 'x'.repeat(65) }, 'avatar', 'Este valor no es válido'],
    ['en', { userId: 'someone' }, 'body', 'This value is not valid'],
  ])('PUT rejects bad input (%s %j) and changes nothing', async (language, body, field, message) => {
    const before = prefsOf(await get(bob));
    const res = await put(bob, body, language);
    expect(res.statusCode).toBe(400);
    const { error } = ApiErrorSchema.parse(json(res));
    expect(error.code).toBe('validation_failed');
    expect(error.errors).toContainEqual({ field, code: 'invalid', message });
    expect(prefsOf(await get(bob))).toEqual(before);
  });

  it.each([
    ['GET', '/api/users/preferences'],
    ['PUT', '/api/users/preferences'],
    ['GET', '/api/users/onboarding-status'],
  ] as const)('%s %s needs a bearer token', async (method, url) => {
    const res = await t.app.inject({ method, url, payload: method === 'PUT' ? {} : undefined });
    expect(res.statusCode).toBe(401);
    expect(ApiErrorSchema.parse(json(res)).error.code).toBe('unauthorized');
  });

  it('IDOR: another user reads and changes only their own preferences and onboarding status', async () => {
    const anaBefore = prefsOf(await get(ana));
    expect(prefsOf(await get(bob))).toEqual(DEFAULT_PREFERENCES);
    expect(json(await onboarding(bob))).toEqual({ success: true, onboardingCompleted: false });
    await put(bob, { avatar: 'robot', theme: 'light', onboardingCompleted: true });
    expect(prefsOf(await get(ana))).toEqual(anaBefore);
    expect((await t.storage.users.findById(ana.user.id))?.theme).toBe('auto');
    expect(prefsOf(await get(bob))).toMatchObject({ avatar: 'robot', theme: 'light' });
  });
});

describe('the chosen avatar (SPEC A-14)', () => {
  /** A custom avatar record of `owner`'s, as processing leaves it. */
  async function customAvatar(owner: AuthSession, n: number, status: 'pending' | 'completed') {
    const id = `avatar-0000000${n}-prefs`;
    await t.storage.customAvatars.insert({
      id,
      userId: owner.user.id,
      name: `Mío ${n}`,
      description: '',
      tags: [],
      originalName: 'mio.glb',
      originalSize: 1000,
      createdAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      estimatedMs: 5000,
      status,
      step: status === 'completed' ? 'stored' : 'queued',
      progress: status === 'completed' ? 100 : 0,
      uploadFile: status === 'completed' ? null : `${id}.upload.glb`,
      modelFile: status === 'completed' ? `${id}.glb` : null,
      processedSize: null,
      compressionRatio: null,
      rigMetadata: null,
      animationConfig: null,
      compatibility: null,
      error: null,
      completedAt: null,
    });
    return id;
  }
  const userAvatar = async (s: AuthSession) =>
    (
      json(await t.app.inject({ method: 'GET', url: '/auth/me', headers: bearer(s) })) as {
        user: { avatar: string | null };
      }
    ).user.avatar;

  it('User.avatar follows the choice: a system character, the own ready avatar, then the default', async () => {
    const carla = await register('prefs-carla@example.com');
    expect(await userAvatar(carla)).toBeNull();
    expect((await put(carla, { avatar: 'witch', selectedAvatarId: 'witch' })).statusCode).toBe(200);
    expect(await userAvatar(carla)).toBe('witch');
    const mine = await customAvatar(carla, 1, 'completed');
    expect((await put(carla, { avatar: mine, selectedAvatarId: mine })).statusCode).toBe(200);
    expect(await userAvatar(carla)).toBe(mine);
    expect((await put(carla, { avatar: null, selectedAvatarId: null })).statusCode).toBe(200);
    expect(await userAvatar(carla)).toBeNull();
  });

  it.each([
    ['es', 'an unknown id', 'Elige uno de los personajes o uno de tus avatares ya listos'],
    [
      'en',
      'an avatar still processing',
      'Choose one of the characters or one of your own avatars that is ready',
    ],
    [
      'en',
      "another user's ready avatar",
      'Choose one of the characters or one of your own avatars that is ready',
    ],
  ])('refuses (%s) %s as the avatar, changing nothing', async (language, kind, message) => {
    const dani = await register(`prefs-dani-${kind.length}-${language}@example.com`);
    await put(dani, { avatar: 'elf', selectedAvatarId: 'elf' });
    const id =
      kind === 'an unknown id'
        ? 'luna'
        : kind === 'an avatar still processing'
          ? await customAvatar(dani, 2, 'pending')
          : await customAvatar(ana, 3, 'completed');
    const before = prefsOf(await get(dani));
    const res = await put(dani, { avatar: id, selectedAvatarId: id, theme: 'light' }, language);
    expect(res.statusCode).toBe(400);
    const { error } = ApiErrorSchema.parse(json(res));
    expect(error.code).toBe('validation_failed');
    expect(error.errors).toEqual([
      { field: 'avatar', code: 'avatarUnavailable', message },
      { field: 'selectedAvatarId', code: 'avatarUnavailable', message },
    ]);
    expect(prefsOf(await get(dani))).toEqual(before);
    expect(await userAvatar(dani)).toBe('elf');
  });
});
