import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_MESSAGES, FIELD_MESSAGES, HealthSchema, routes, type CustomVoice } from '@alma/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AlmaApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openStorage } from '../../storage/index.ts';
import type { Storage } from '../../storage/types.ts';
import { json, registrationBody } from '../../test-support/app.ts';
import { multipartBody, multipartParts } from '../../test-support/multipart.ts';
import { createFakeSynthesizer } from '../../test-support/speech.ts';
import { FFMPEG_AVAILABLE, needsFfmpeg, recordWithFfmpeg } from '../../test-support/ffmpeg-audio.ts';
import { hostileAudioCorpus } from '../../test-support/hostile-audio.ts';
import { m4aOpusOf, mp3Of, oggOpusOf, tone, wavOf } from '../../test-support/voice-samples.ts';

/**
 * Custom voice uploads over REST (SPEC.md VU-1…VU-9) with real audio made in the test: WAV, MP3
 * (LAME), Ogg/Opus (libopus), M4A (mediabunny's MP4 muxer, Opus inside), and what ffmpeg makes
 * (AAC in M4A, a Safari MP4 note, LAME MP3). MP3 and AAC are analysed through Debian's ffmpeg;
 * without it they are kept unanalysed (the service test covers that path).
 */
let app: AlmaApp['app'];
let storage: Storage;
let dataDir: string;
const synthesizer = createFakeSynthesizer({ msPerWord: 5 });

interface Account {
  id: string;
  token: string;
}
let n = 0;
async function register(plan?: 'enterprise'): Promise<Account> {
  n += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: registrationBody({ name: `Usuario ${n}`, email: `voices${n}@example.com` }),
  });
  const body = json(res) as { token: string; user: { id: string } };
  if (plan) await storage.users.update(body.user.id, { plan });
  return { id: body.user.id, token: body.token };
}

const multipart = (fields: Record<string, string>, file?: { name: string; data: Uint8Array }) =>
  multipartBody(fields, file ? { field: 'voice', ...file } : undefined);

const upload = (
  who: Account,
  name: string,
  data: Uint8Array,
  fields: Record<string, string> = { consent: 'true' },
  language = 'es',
) => {
  const body = multipart(fields, { name, data });
  return app.inject({
    method: 'POST',
    url: '/api/upload/voice',
    payload: body.payload,
    headers: {
      authorization: `Bearer ${who.token}`,
      'content-type': body.contentType,
      'accept-language': language,
    },
  });
};
const call = (who: Account, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${who.token}`, 'accept-language': 'es' },
  });
const errorOf = (res: { body: string }) => (json(res) as { error: { code: string; message: string } }).error;
const samplesOnDisk = () => {
  try {
    return readdirSync(join(dataDir, 'custom-voices')).length;
  } catch {
    return 0;
  }
};

const voicePcm = tone({ f0: 220, seconds: 4 });
type Sample = 'wav' | 'mp3' | 'ogg' | 'm4a' | 'm4aAac' | 'safariMp4' | 'lameMp3';
let files: Record<Sample, Uint8Array>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'alma-voice-uploads-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    REPLY_TOKEN_DELAY_MS: '0',
    CLIENT_DIST: join(dataDir, 'no-client'),
    // `analysed()` reads /health's counter right after each upload: no answer given again (H-1).
    HEALTH_MAX_AGE_MS: '0',
  });
  storage = await openStorage({ dataDir, mongodbUri: undefined });
  const built = await buildApp({ config, storage, logger: false, speech: synthesizer });
  app = built.app;
  await app.ready();
  const none = new Uint8Array();
  files = {
    wav: wavOf(voicePcm),
    mp3: mp3Of(voicePcm),
    ogg: await oggOpusOf(voicePcm),
    m4a: await m4aOpusOf(voicePcm),
    m4aAac: FFMPEG_AVAILABLE ? await recordWithFfmpeg(voicePcm, 'm4a-aac') : none,
    safariMp4: FFMPEG_AVAILABLE ? await recordWithFfmpeg(voicePcm, 'safari-mp4') : none,
    lameMp3: FFMPEG_AVAILABLE ? await recordWithFfmpeg(voicePcm, 'mp3') : none,
  };
}, 60_000);
afterAll(async () => {
  await app.close();
  await storage.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('VU-2 formats by content', () => {
  let who: Account;
  beforeAll(async () => {
    who = await register('enterprise');
  });

  /** The analyses this server's workers finished (`/health`, M-9). */
  const analysed = async () =>
    HealthSchema.parse(json(await app.inject({ method: 'GET', url: '/health' }))).voiceJobs?.finished ?? NaN;

  const accepted = async (key: Sample, name: string, format: CustomVoice['format']) => {
    const before = await analysed();
    const res = await upload(who, name, files[key]);
    expect(res.statusCode, res.body).toBe(201);
    // VU-1, M-9: analysed as a job by this process's worker (no REDIS_URL), once.
    expect(await analysed()).toBe(before + 1);
    const body = routes.voiceUploads.upload.response.parse(json(res));
    const voice = body.voice;
    expect(voice).toMatchObject({
      isCustom: true,
      userId: who.id,
      originalName: name,
      size: files[key].length,
      format,
    });
    expect(voice.id).toMatch(/^custom-/);
    expect(body.warnings[0]).toMatch(/aproximación/);
    // A 220 Hz harmonic tone of 4 s: decoded, its pitch within 3 %, its duration within 100 ms.
    expect(voice.analysis.decoded).toBe(true);
    expect(Math.abs((voice.analysis.pitchHz ?? 0) - 220) / 220).toBeLessThan(0.03);
    expect(voice.speech.variant).toBe('+f3');
    expect(voice.category).toBe('femenina');
    expect(Math.abs(voice.analysis.durationMs - 4000)).toBeLessThan(100);
  };

  it.each([
    ['wav', 'muestra.wav', 'wav'],
    ['ogg', 'muestra.ogg', 'ogg'],
    ['m4a', 'muestra.m4a', 'm4a'],
  ] as const)('VU-3 accepts and analyses %s (%s) with npm packages alone', async (key, name, format) => {
    await accepted(key, name, format);
  });

  it.skipIf(!FFMPEG_AVAILABLE).each([
    ['mp3', 'muestra.mp3', 'mp3'],
    ['lameMp3', 'lame.mp3', 'mp3'],
    ['m4aAac', 'itunes.m4a', 'm4a'],
    ['safariMp4', 'safari.mp4', 'm4a'],
  ] as const)(needsFfmpeg('VU-3 accepts and analyses %s (%s) through ffmpeg'), async (key, name, format) => {
    await accepted(key, name, format);
  });

  it('lets content decide the type: MP3 bytes named .wav are an MP3', async () => {
    const res = await upload(who, 'renombrada.wav', files.mp3);
    expect(res.statusCode, res.body).toBe(201);
    expect((json(res) as { voice: CustomVoice }).voice.format).toBe('mp3');
  });
});

describe('VU-2 refusals: the spec’s messages, nothing stored', () => {
  let who: Account;
  beforeAll(async () => {
    who = await register('enterprise');
  });
  const refused = async (res: Awaited<ReturnType<typeof upload>>, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorOf(res).code).toBe(code);
    const list = await call(who, 'GET', `/api/upload/voices/${who.id}`);
    expect((json(list) as { voices: unknown[] }).voices).toEqual([]);
  };

  it('refuses text renamed to .wav with "Solo se permiten archivos de audio (WAV, MP3, M4A, OGG)"', async () => {
    const before = samplesOnDisk();
    const res = await upload(who, 'nota.wav', new TextEncoder().encode('esto no es audio '.repeat(200)));
    await refused(res, 415, 'voice_format_invalid');
    expect(errorOf(res).message).toBe('Solo se permiten archivos de audio (WAV, MP3, M4A, OGG)');
    expect(samplesOnDisk()).toBe(before);
  });

  it('refuses non-audio content (a PNG) and audio under a non-audio name', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(2000)]);
    await refused(await upload(who, 'foto.mp3', png), 415, 'voice_format_invalid');
    await refused(await upload(who, 'voz.txt', files.wav), 415, 'voice_format_invalid');
    const english = await upload(who, 'foto.png', png, { consent: 'true' }, 'en');
    expect(errorOf(english).message).toBe(ERROR_MESSAGES.en.voice_format_invalid);
  });

  it.each(['wav', 'mp3', 'ogg', 'm4a'] as const)('refuses a truncated %s as damaged', async (key) => {
    const before = samplesOnDisk();
    const data = files[key];
    const res = await upload(who, `cortada.${key}`, data.subarray(0, Math.floor(data.length * 0.6)));
    await refused(res, 422, 'voice_file_damaged');
    expect(errorOf(res).message).toMatch(/^Solo se permiten archivos de audio \(WAV, MP3, M4A, OGG\)/);
    expect(samplesOnDisk()).toBe(before);
  });

  it('refuses a file over 10 MB with "El archivo es demasiado grande. Máximo 10MB"', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(files.wav.subarray(0, 44));
    const res = await upload(who, 'grande.wav', big);
    await refused(res, 413, 'voice_file_too_large');
    expect(errorOf(res).message).toBe('El archivo es demasiado grande. Máximo 10MB');
  });

  it('VU-1 refuses an upload without consent', async () => {
    const res = await upload(who, 'muestra.wav', files.wav, {});
    await refused(res, 400, 'validation_failed');
    expect((json(res) as { error: { errors: unknown[] } }).error.errors).toEqual([
      { field: 'consent', code: 'voiceConsentRequired', message: FIELD_MESSAGES.es.voiceConsentRequired },
    ]);
  });

  it('E-2 refuses JSON or text with "send it as a form upload" (the upload is multipart), and anonymous callers', async () => {
    const res = await call(who, 'POST', '/api/upload/voice', { voice: 'x' });
    expect(res.statusCode).toBe(415);
    expect(errorOf(res)).toEqual({
      code: 'multipart_required',
      message: ERROR_MESSAGES.es.multipart_required,
    });
    const text = await app.inject({
      method: 'POST',
      url: '/api/upload/voice',
      payload: 'voice',
      headers: {
        authorization: `Bearer ${who.token}`,
        'content-type': 'text/plain',
        'accept-language': 'en',
      },
    });
    expect(text.statusCode).toBe(415);
    expect(errorOf(text)).toEqual({
      code: 'multipart_required',
      message: ERROR_MESSAGES.en.multipart_required,
    });
    // A JSON route still asks for JSON.
    const json415 = await app.inject({
      method: 'POST',
      url: '/message',
      payload: '<message>hola</message>',
      headers: {
        authorization: `Bearer ${who.token}`,
        'content-type': 'application/xml',
        'accept-language': 'en',
      },
    });
    expect(errorOf(json415)).toEqual({
      code: 'unsupported_media_type',
      message: ERROR_MESSAGES.en.unsupported_media_type,
    });
    const anonymous = await app.inject({ method: 'POST', url: '/api/upload/voice' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('VU-2 hostile audio (issue 11): each refused in es and en, nothing stored', () => {
  it.each(['es', 'en'] as const)(
    'refuses every file of the corpus with its status, code and message (%s)',
    async (language) => {
      const who = await register('enterprise');
      const corpus = await hostileAudioCorpus();
      const before = samplesOnDisk();
      const answers: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const entry of corpus) {
        const res = await upload(who, entry.file, entry.data, { consent: 'true' }, language);
        answers[entry.name] = { status: res.statusCode, ...errorOf(res) };
        expected[entry.name] = { ...entry.upload, message: ERROR_MESSAGES[language][entry.upload.code] };
      }
      expect(answers).toEqual(expected);
      expect(samplesOnDisk()).toBe(before);
      const list = await call(who, 'GET', `/api/upload/voices/${who.id}`);
      expect((json(list) as { voices: unknown[] }).voices).toEqual([]);
    },
    60_000,
  );

  it('VU-1 refuses two files ("one file") or too many fields, in es and en; nothing stored', async () => {
    const who = await register('enterprise');
    const wav = wavOf(tone({ f0: 200, seconds: 1.5, burstsPerSecond: 4 }), 16_000);
    const before = samplesOnDisk();
    const forms = [
      {
        parts: [
          { field: 'consent', value: 'true' },
          { field: 'voice', name: 'uno.wav', data: wav },
          { field: 'voice', name: 'dos.wav', data: wav },
        ],
        error: { field: 'voice', code: 'oneFile' },
      },
      {
        parts: [
          ...Array.from({ length: 11 }, (_, i) => ({ field: `campo${i}`, value: 'x' })),
          { field: 'consent', value: 'true' },
          { field: 'voice', name: 'uno.wav', data: wav },
        ],
        error: { field: 'body', code: 'tooManyFields' },
      },
    ] as const;
    for (const [language, form] of (['es', 'en'] as const).flatMap((l) =>
      forms.map((f) => [l, f] as const),
    )) {
      const body = multipartParts([...form.parts]);
      const res = await app.inject({
        method: 'POST',
        url: '/api/upload/voice',
        payload: body.payload,
        headers: {
          authorization: `Bearer ${who.token}`,
          'content-type': body.contentType,
          'accept-language': language,
        },
      });
      expect(res.statusCode).toBe(400);
      expect((json(res) as { error: { errors: unknown[] } }).error.errors).toEqual([
        { ...form.error, message: FIELD_MESSAGES[language][form.error.code] },
      ]);
    }
    expect(samplesOnDisk()).toBe(before);
    const list = await call(who, 'GET', `/api/upload/voices/${who.id}`);
    expect((json(list) as { voices: unknown[] }).voices).toEqual([]);
  });

  it('refuses an empty file as a missing field', async () => {
    const who = await register('enterprise');
    const res = await upload(who, 'vacia.wav', new Uint8Array(), { consent: 'true' }, 'en');
    expect(res.statusCode).toBe(400);
    expect((json(res) as { error: { errors: unknown[] } }).error.errors).toEqual([
      { field: 'voice', code: 'required', message: FIELD_MESSAGES.en.required },
    ]);
  });
});

describe('VU-5 plan checks and usage', () => {
  it('a free plan keeps two custom voices: the third is refused; subscription limits count them', async () => {
    const who = await register();
    expect((await upload(who, 'una.wav', files.wav)).statusCode).toBe(201);
    expect((await upload(who, 'dos.ogg', files.ogg)).statusCode).toBe(201);
    const before = samplesOnDisk();
    const third = await upload(who, 'tres.wav', files.wav);
    expect(third.statusCode).toBe(403);
    expect(errorOf(third)).toEqual({
      code: 'voice_limit_reached',
      message: 'Has alcanzado el máximo de voces personalizadas de tu plan.',
    });
    expect(samplesOnDisk()).toBe(before);
    const limits = routes.account.subscriptionLimits.response.parse(
      json(await call(who, 'GET', '/api/upload/subscription-limits')),
    ).subscription;
    expect(limits.usage.customVoices).toBe(2);
    expect(limits.usage.voiceStorageBytes).toBe(files.wav.length + files.ogg.length);
    expect(limits.usage.totalStorageBytes).toBe(files.wav.length + files.ogg.length);
    expect(limits.formatted.voiceSlotsUsed).toBe('2/2');
    expect(limits.canUploadVoice).toBe(false);
  });
});

describe('VU-6…VU-9 own voices: list, select, speak, serve, delete', () => {
  let owner: Account;
  let other: Account;
  let voice: CustomVoice;
  beforeAll(async () => {
    owner = await register();
    other = await register();
    const res = await upload(owner, 'mi voz.wav', files.wav, { consent: 'true', name: 'Mi voz' });
    voice = (json(res) as { voice: CustomVoice }).voice;
  });

  it('VU-6 lists the caller’s voices; another user’s id is forbidden', async () => {
    const mine = await call(owner, 'GET', `/api/upload/voices/${owner.id}`);
    expect(routes.voiceUploads.list.response.parse(json(mine)).voices.map((v) => v.id)).toEqual([voice.id]);
    const theirs = await call(other, 'GET', `/api/upload/voices/${owner.id}`);
    expect(theirs.statusCode).toBe(403);
    expect(errorOf(theirs).code).toBe('forbidden');
  });

  it('VU-8 GET /api/voices adds the user’s custom voices to the catalogue, for that user only', async () => {
    const mine = routes.voices.list.response.parse(json(await call(owner, 'GET', '/api/voices'))).voices;
    expect(mine).toHaveLength(26);
    expect(mine.at(-1)).toMatchObject({ id: voice.id, name: 'Mi voz', isCustom: true });
    const theirs = routes.voices.list.response.parse(json(await call(other, 'GET', '/api/voices'))).voices;
    expect(theirs.some((v) => v.isCustom)).toBe(false);
    expect((await call(owner, 'GET', `/api/voices/${voice.id}`)).statusCode).toBe(200);
    expect((await call(other, 'GET', `/api/voices/${voice.id}`)).statusCode).toBe(404);
  });

  it('VU-8 selects a custom voice as the default; another user cannot', async () => {
    const res = await call(owner, 'POST', '/api/voices/select', { voiceId: voice.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await storage.users.getPreferences(owner.id))?.defaultVoiceId).toBe(voice.id);
    const refused = await call(other, 'POST', '/api/voices/select', { voiceId: voice.id });
    expect(refused.statusCode).toBe(400);
  });

  it('VU-8 a reply with the custom voice speaks with its derived params and carries the sample', async () => {
    synthesizer.calls.length = 0;
    const res = await call(owner, 'POST', '/message', { message: 'Hola, ¿cómo estás?', voiceId: voice.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(synthesizer.calls.length).toBeGreaterThan(0);
    const params = synthesizer.calls[0]?.voice;
    expect(params).toMatchObject({
      voice: `es${voice.speech.variant}`,
      pitch: voice.speech.pitch,
      rate: voice.speech.rate,
    });
    expect(params?.sample?.id).toBe(voice.id);
    const bytes = await params?.sample?.read();
    expect(bytes?.length).toBe(files.wav.length);
    // The saved default (V-7) resolves the same way.
    synthesizer.calls.length = 0;
    await call(owner, 'POST', '/message', { message: 'Otra vez' });
    expect(synthesizer.calls[0]?.voice.voice).toBe(`es${voice.speech.variant}`);
  });

  it('VU-9 serves the sample at its previewUrl, under its owner only', async () => {
    const res = await app.inject({ method: 'GET', url: voice.previewUrl });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.rawPayload.length).toBe(files.wav.length);
    const wrong = await app.inject({ method: 'GET', url: `/api/voices/custom/${other.id}/${voice.file}` });
    expect(wrong.statusCode).toBe(404);
    const bad = await app.inject({ method: 'GET', url: `/api/voices/custom/${owner.id}/..%2Fx.wav` });
    expect(bad.statusCode).toBe(404);
  });

  it('VU-7 deletes only one’s own voice, and its sample with it', async () => {
    const before = samplesOnDisk();
    const theirs = await call(other, 'DELETE', `/api/upload/voice/${voice.id}`);
    expect(theirs.statusCode).toBe(404);
    const mine = await call(owner, 'DELETE', `/api/upload/voice/${voice.id}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(samplesOnDisk()).toBe(before - 1);
    expect((await app.inject({ method: 'GET', url: voice.previewUrl })).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/upload/voice/${voice.id}`)).statusCode).toBe(404);
  });
});
