import {
  ApiErrorSchema,
  AuthSessionSchema,
  PreferencesSchema,
  VoiceSchema,
  type AuthSession,
} from '@alma/protocol';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, json, type TestApp, registrationBody } from '../../test-support/app.ts';
import { captureMailer } from '../../test-support/mail.ts';
import { AVATAR_VOICES } from './catalogue.ts';

let t: TestApp;
let ana: AuthSession;

beforeAll(async () => {
  t = await buildTestApp({ AUTH_RATE_LIMIT_MAX: '10000' }, { mailer: captureMailer() });
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: 'Ana', email: 'voices-ana@example.com' }),
  });
  ana = AuthSessionSchema.parse(json(res));
});
afterAll(async () => t.close());

const bearer = () => ({ authorization: `Bearer ${ana.token}` });
const get = (url: string, headers: Record<string, string> = bearer()) =>
  t.app.inject({ method: 'GET', url, headers });
const select = (payload: unknown, language = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/voices/select',
    headers: { ...bearer(), 'accept-language': language },
    payload: payload as object,
  });
const VoiceListSchema = z.object({ success: z.literal(true), voices: z.array(VoiceSchema) });
const idsOf = (res: { body: string }) => VoiceListSchema.parse(json(res)).voices.map((v) => v.id);

describe('V-2 listing and reading voices', () => {
  it('GET /api/voices needs the access token', async () => {
    for (const url of ['/api/voices', '/api/voices/es-lucia', '/api/voices/recommended/witch']) {
      const res = await get(url, {});
      expect(res.statusCode, url).toBe(401);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/voices/select',
      payload: { voiceId: 'es-lucia' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('GET /api/voices answers success, the 25 voices and a message', async () => {
    const res = await get('/api/voices');
    expect(res.statusCode).toBe(200);
    const body = z
      .object({ success: z.literal(true), voices: z.array(VoiceSchema), message: z.string().min(1) })
      .parse(json(res));
    expect(body.voices).toHaveLength(25);
    expect(body.voices.every((v) => !v.favorite && !v.recent && !v.isCustom)).toBe(true);
  });

  it('GET /api/voices/:id answers one voice; an unknown id is not_found', async () => {
    const res = await get('/api/voices/es-mateo');
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      success: true,
      voice: { id: 'es-mateo', category: 'masculina', language: 'español', gender: 'male' },
    });
    const missing = await get('/api/voices/xx-nobody');
    expect(missing.statusCode).toBe(404);
    expect(ApiErrorSchema.parse(json(missing)).error.code).toBe('not_found');
  });
});

describe('V-3 recommended voices per avatar', () => {
  it('answers the avatar’s own list', async () => {
    for (const [avatarId, ids] of Object.entries(AVATAR_VOICES)) {
      const res = await get(`/api/voices/recommended/${avatarId}`);
      expect(res.statusCode).toBe(200);
      expect(idsOf(res)).toEqual(ids);
    }
    const witch = VoiceListSchema.parse(json(await get('/api/voices/recommended/witch'))).voices;
    expect(witch[0]).toMatchObject({ category: 'femenina', language: 'español' });
  });

  it('answers the general recommended set for an unknown (or custom) avatar', async () => {
    for (const avatarId of ['custom-123', 'toString', '__proto__']) {
      const res = await get(`/api/voices/recommended/${avatarId}`);
      expect(res.statusCode).toBe(200);
      expect(idsOf(res).sort()).toEqual([
        'en-emma',
        'en-oliver',
        'en-river',
        'es-alex',
        'es-lucia',
        'es-mateo',
      ]);
    }
  });
});

describe('V-4 selecting a voice', () => {
  it('stores it as the user’s defaultVoiceId and answers the voice', async () => {
    const res = await select({ voiceId: 'en-oliver', sessionId: 'session-1' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ success: true, voice: { id: 'en-oliver' } });
    const prefs = await get('/api/users/preferences');
    const preferences = PreferencesSchema.parse((json(prefs) as { preferences: unknown }).preferences);
    expect(preferences.defaultVoiceId).toBe('en-oliver');
  });

  it('accepts no sessionId', async () => {
    const res = await select({ voiceId: 'es-lucia' });
    expect(res.statusCode).toBe(200);
  });

  it('rejects an unknown id with a field error and changes nothing', async () => {
    await select({ voiceId: 'es-carmen' });
    const res = await select({ voiceId: 'xx-nobody' }, 'es');
    expect(res.statusCode).toBe(400);
    const body = ApiErrorSchema.parse(json(res));
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.errors).toEqual([
      { field: 'voiceId', code: 'invalid', message: 'Este valor no es válido' },
    ]);
    for (const payload of [{}, { voiceId: '' }, { voiceId: 42 }]) {
      const bad = await select(payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const prefs = json(await get('/api/users/preferences')) as { preferences: { defaultVoiceId: string } };
    expect(prefs.preferences.defaultVoiceId).toBe('es-carmen');
  });
});

describe('V-5 previews', () => {
  const isMp3 = (bytes: Buffer) =>
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) || bytes.subarray(0, 3).toString() === 'ID3';

  it('are real MP3s, generated once on first request (even when asked concurrently) and cached', async () => {
    const before = t.voices.generatedCount;
    const answers = await Promise.all(
      [1, 2, 3].map(() => t.app.inject({ method: 'GET', url: '/system-voices/es-sofia.mp3' })),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/mpeg');
      expect(res.headers['cache-control']).toMatch(/public, max-age=\d{6,}/);
      expect(isMp3(res.rawPayload)).toBe(true);
      expect(res.rawPayload.length).toBeGreaterThan(5000);
      expect(res.rawPayload.equals(answers[0]!.rawPayload)).toBe(true);
    }
    expect(t.voices.generatedCount).toBe(before + 1);
    const dir = t.voices.previewDir;
    expect(readdirSync(dir).filter((f) => f.startsWith('es-sofia-') && f.endsWith('.mp3'))).toHaveLength(1);

    const again = await t.app.inject({ method: 'GET', url: '/system-voices/es-sofia.mp3' });
    expect(again.rawPayload.equals(answers[0]!.rawPayload)).toBe(true);
    expect(t.voices.generatedCount).toBe(before + 1);
    // Spec §7's other audio path answers the same file.
    const alias = await t.app.inject({ method: 'GET', url: '/api/voices/audio/es-sofia.mp3' });
    expect(alias.rawPayload.equals(answers[0]!.rawPayload)).toBe(true);
  });

  it('speak each voice differently', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/system-voices/en-emma.mp3' });
    const b = await t.app.inject({ method: 'GET', url: '/system-voices/en-ava.mp3' });
    expect(isMp3(a.rawPayload) && isMp3(b.rawPayload)).toBe(true);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(false);
  });

  it('refuse anything but <catalogue id>.mp3 — no path escapes', async () => {
    for (const url of [
      '/system-voices/..%2F..%2Fjwt-secret',
      '/system-voices/..%2Fjwt-secret.mp3',
      '/system-voices/%2E%2E%2Fsystem-voices%2Fes-lucia.mp3',
      '/system-voices/es-lucia.wav',
      '/system-voices/ES-LUCIA.mp3',
      '/system-voices/xx-nobody.mp3',
      '/api/voices/audio/..%2F..%2Fjwt-secret',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    expect(existsSync(join(t.voices.previewDir, 'xx-nobody.mp3'))).toBe(false);
  });
});
