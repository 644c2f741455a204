import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, json, registrationBody } from '../test-support/app.ts';
import { openEmbeddedStorage } from './embedded/index.ts';
import { MIGRATIONS, migrate } from './embedded/migrations.ts';
import { messageFromDocument, storedMessageFromDocument } from './mongodb/messages.ts';
import { stateFromDocument } from './mongodb/sessions.ts';
import { fromDocument as usageFromDocument } from './mongodb/usage.ts';
import { fromDocument as userFromDocument } from './mongodb/users.ts';
import { EMBEDDED_FILE_NAME } from './index.ts';
import { StoredRecordError } from './records.ts';
import { DEFAULT_PREFERENCES } from './types.ts';

/**
 * Rows as earlier releases wrote them read as today's records (README Decisions: fields added
 * later read as their defaults); a row no release writes is refused by name, never handed on or
 * skipped.
 */

let directory: string;
let files = 0;
const nextFile = () => join(directory, `legacy-${++files}.db`);
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'alma-legacy-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-01-01T00:00:01.000Z';
const T2 = '2024-01-01T00:00:02.000Z';

/** A database built release by release: each table's rows written with the columns it had then. */
function oldDatabase(file: string): void {
  const db = new Database(file);
  const upTo = (version: number) =>
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= version),
    );
  upTo(1);
  db.exec(`
    INSERT INTO users (id, name, email, password_hash, bio, language, theme, email_notifications,
      push_notifications, plan, role, avatar, stripe_customer_id, created_at)
    VALUES ('user-0001', 'Old', 'old@example.com', 'hash', '', 'es', 'dark', 1, 0, 'free', 'user',
      NULL, NULL, '${T0}');
    INSERT INTO sessions (session_id, user_id, title, personality, created_at, updated_at)
      VALUES ('session-0001', 'user-0001', 'Mine', 'default', '${T0}', '${T0}');
    INSERT INTO messages (_id, session_id, user_id, role, content, created_at, client_message_id,
      reply_to, emotion, emotion_analysis, language, user_language, personality, audio_url, is_complete)
    VALUES
      ('m-1', 'session-0001', 'user-0001', 'user', 'hola', '${T1}', 'c-1', NULL, NULL, NULL, NULL,
        'es', 'default', NULL, 1),
      ('m-2', 'session-0001', 'user-0001', 'assistant', '¡Hola!', '${T2}', NULL, 'm-1', 'happy',
        '{"emotion":"happy","intensity":0.6,"confidence":0.9}', 'es', 'es', 'default',
        '/audio/m-2.mp3', 1);
    INSERT INTO refresh_tokens (token_hash, user_id, family_id, expires_at, created_at, revoked_at, replaced_by)
      VALUES ('hash-1', 'user-0001', 'family-1', '2030-01-01T00:00:00.000Z', '${T0}', NULL, NULL);
  `);
  upTo(2);
  db.exec(`
    INSERT INTO usage (user_id, period, messages) VALUES ('user-0001', '2024-01', 3);
    INSERT INTO identities (provider, subject, user_id, email, created_at)
      VALUES ('google', 'sub-1', 'user-0001', NULL, '${T0}');
  `);
  upTo(4);
  // The analysis and speech as the first release of custom voices wrote them.
  db.prepare(
    `INSERT INTO custom_voices (id, user_id, name, description, category, language, gender, format,
       original_name, file, size, created_at, analysis, speech)
     VALUES ('voice-1', 'user-0001', 'Mía', '', 'femenina', 'español', 'female', 'wav', 'mia.wav',
       'voice-1.wav', 1000, '${T0}', @analysis, @speech)`,
  ).run({
    analysis: JSON.stringify({
      durationMs: 4000,
      decoded: true,
      rmsDb: -20,
      peakDb: -3,
      clippingRatio: 0,
      pitchHz: 180,
      pitchRangeHz: [150, 220],
      syllablesPerSecond: 4,
      warnings: [],
    }),
    speech: JSON.stringify({ variant: '+f3', pitch: 60, rate: 170 }),
  });
  upTo(5);
  // A report from before repaired/removedAnimations/droppedExtensions/extensions, and an error
  // from before findings.
  const avatar = db.prepare(
    `INSERT INTO custom_avatars (id, user_id, name, description, tags, original_name, original_size,
       created_at, started_at, estimated_ms, status, step, progress, upload_file, model_file,
       processed_size, compression_ratio, rig_metadata, animation_config, compatibility, error, completed_at)
     VALUES (@id, 'user-0001', @id, '', '[]', 'a.glb', 2000, '${T0}', '${T0}', 5000, @status, 'stored',
       100, NULL, @modelFile, @processedSize, NULL, NULL, NULL, @compatibility, @error, '${T1}')`,
  );
  avatar.run({
    id: 'avatar-1',
    status: 'completed',
    modelFile: 'avatar-1.glb',
    processedSize: 1500,
    compatibility: JSON.stringify({
      score: 40,
      capabilities: [{ id: 'skeleton', coverage: 0, works: false }],
      works: [],
      missing: ['skeleton'],
      warnings: ['no_skeleton'],
    }),
    error: null,
  });
  avatar.run({
    id: 'avatar-2',
    status: 'failed',
    modelFile: null,
    processedSize: null,
    compatibility: null,
    error: JSON.stringify({ code: 'invalid_glb', detail: 'bad magic' }),
  });
  db.close();
}

describe('rows written by earlier releases (embedded store)', () => {
  it('read through every repository with the fields added since at their defaults', async () => {
    const file = nextFile();
    oldDatabase(file);
    const storage = openEmbeddedStorage({ file });
    try {
      expect(await storage.users.findById('user-0001')).toMatchObject({
        email: 'old@example.com',
        pushNotifications: false,
        emailVerified: false,
      });
      expect(await storage.users.getPreferences('user-0001')).toStrictEqual(DEFAULT_PREFERENCES);
      expect(await storage.users.tokenVersion('user-0001')).toBe(0);

      expect(await storage.sessions.state('user-0001', 'session-0001')).toStrictEqual({
        session: {
          sessionId: 'session-0001',
          title: 'Mine',
          personality: 'default',
          createdAt: T0,
          updatedAt: T0,
          messageCount: 2,
          dominantEmotion: null,
        },
        titleSource: 'user',
        context: null,
        emotionScores: {},
      });
      expect(await storage.sessions.list('user-0001')).toHaveLength(1);

      const page = await storage.messages.page('user-0001', 'session-0001', 1, 50);
      expect(page.total).toBe(2);
      expect(page.items[1]).toStrictEqual({
        _id: 'm-2',
        sessionId: 'session-0001',
        role: 'assistant',
        content: '¡Hola!',
        createdAt: T2,
        clientMessageId: null,
        replyTo: 'm-1',
        emotion: 'happy',
        emotionAnalysis: { emotion: 'happy', intensity: 0.6, confidence: 0.9 },
        language: 'es',
        userLanguage: 'es',
        personality: 'default',
        audioUrl: '/audio/m-2.mp3',
        isComplete: true,
      });
      expect((await storage.messages.findReplyTo('user-0001', 'm-1'))?._id).toBe('m-2');
      expect((await storage.messages.findByClientMessageId('user-0001', 'c-1'))?._id).toBe('m-1');
      expect(await storage.messages.all('user-0001', 'session-0001')).toMatchObject([
        { _id: 'm-1', gesture: null, voiceId: null, avatarId: null },
        { _id: 'm-2', gesture: null, voiceId: null, avatarId: null },
      ]);

      // A row counted before voice time was: its voice seconds are the column's default, 0.
      expect(await storage.usage.get('user-0001', '2024-01')).toStrictEqual({ messages: 3, voiceSeconds: 0 });
      expect(await storage.identities.listForUser('user-0001')).toMatchObject([{ email: null }]);
      expect(await storage.refreshTokens.findByHash('hash-1')).toMatchObject({ revokedAt: null });
      expect(await storage.customVoices.find('user-0001', 'voice-1')).toMatchObject({
        analysis: { pitchRangeHz: [150, 220], warnings: [] },
        speech: { variant: '+f3' },
      });
      const [done, failed] = await storage.customAvatars.listForUser('user-0001');
      expect(done?.compatibility).toStrictEqual({
        score: 40,
        capabilities: [{ id: 'skeleton', coverage: 0, works: false }],
        works: [],
        missing: ['skeleton'],
        warnings: ['no_skeleton'],
      });
      expect(failed?.error).toStrictEqual({ code: 'invalid_glb', detail: 'bad magic' });
    } finally {
      await storage.close();
    }
  });

  it('refuses a row no release writes by naming it, and does not skip it', async () => {
    const file = nextFile();
    oldDatabase(file);
    const db = new Database(file);
    migrate(db);
    db.exec(`
      UPDATE messages SET gesture = 'moonwalk' WHERE _id = 'm-2';
      UPDATE sessions SET context = '{"topics":[]}' WHERE session_id = 'session-0001';
    `);
    db.close();
    const storage = openEmbeddedStorage({ file });
    try {
      const all = storage.messages.all('user-0001', 'session-0001');
      await expect(all).rejects.toBeInstanceOf(StoredRecordError);
      await expect(all).rejects.toThrow(
        /a row of messages \(m-2\) does not fit its record:[\s\S]*→ at gesture/,
      );
      // Reads that do not carry the gesture still read the row.
      expect((await storage.messages.page('user-0001', 'session-0001', 1, 50)).items).toHaveLength(2);
      await expect(storage.sessions.state('user-0001', 'session-0001')).rejects.toThrow(
        /a row of sessions\.context \(session-0001\) does not fit its record:[\s\S]*→ at summary/,
      );
    } finally {
      await storage.close();
    }
  });
});

describe('writes are parsed by the same schemas (embedded store)', () => {
  /** Refused before anything is written (a schema's error), not read back and rolled back. */
  const refusedAt = (field: string) => (error: unknown) =>
    error instanceof z.ZodError && error.issues.some((issue) => issue.path.includes(field));

  it('refuses a record it could not read back, and stores nothing of it', async () => {
    const file = nextFile();
    oldDatabase(file);
    const storage = openEmbeddedStorage({ file });
    try {
      const bad = { gesture: 'moonwalk' } as unknown as { gesture: null };
      await expect(
        storage.messages.insert({
          _id: 'm-3',
          sessionId: 'session-0001',
          userId: 'user-0001',
          role: 'assistant',
          content: 'x',
          createdAt: T2,
          clientMessageId: null,
          replyTo: null,
          emotion: null,
          emotionAnalysis: null,
          language: null,
          userLanguage: null,
          personality: null,
          audioUrl: null,
          isComplete: true,
          ...bad,
        }),
      ).rejects.toSatisfy(refusedAt('gesture'));
      await expect(
        storage.messages.updateReply('user-0001', 'm-2', {
          content: 'y',
          isComplete: true,
          emotion: null,
          emotionAnalysis: null,
          ...bad,
        }),
      ).rejects.toSatisfy(refusedAt('gesture'));
      await expect(
        storage.sessions.update('user-0001', 'session-0001', {
          personality: 'grumpy' as 'default',
          title: 'Changed',
        }),
      ).rejects.toSatisfy(refusedAt('personality'));
      await expect(
        storage.customAvatars.update('user-0001', 'avatar-1', { status: 'lost' as 'failed' }),
      ).rejects.toSatisfy(refusedAt('status'));

      expect(await storage.messages.all('user-0001', 'session-0001')).toMatchObject([
        { _id: 'm-1' },
        { _id: 'm-2', content: '¡Hola!', gesture: null },
      ]);
      expect(await storage.sessions.find('user-0001', 'session-0001')).toMatchObject({
        title: 'Mine',
        personality: 'default',
      });
      expect((await storage.customAvatars.find('user-0001', 'avatar-1'))?.status).toBe('completed');
    } finally {
      await storage.close();
    }
  });
});

describe('a row that does not fit, through the REST edge', () => {
  it('answers 500 server_error and logs which row and field', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        callback();
      },
    });
    const t = await buildTestApp({}, { logger: { level: 'error', stream } });
    try {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: registrationBody({ name: 'Ana', email: 'ana@example.com' }),
      });
      const { token } = json(registered) as { token: string };
      const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
      const created = await t.app.inject({ method: 'POST', url: '/chat/sessions', payload: {}, headers });
      const { session } = json(created) as { session: { sessionId: string } };

      const db = new Database(join(t.dataDir, EMBEDDED_FILE_NAME));
      db.prepare("UPDATE sessions SET personality = 'grumpy' WHERE session_id = ?").run(session.sessionId);
      db.close();

      const res = await t.app.inject({ method: 'GET', url: '/chat/sessions', headers });
      expect(res.statusCode).toBe(500);
      expect(json(res)).toMatchObject({ error: { code: 'server_error' } });
      const logged = lines.find((line) => line.msg === 'unhandled error');
      expect((logged?.err as { type?: string; message?: string }).type).toBe('StoredRecordError');
      expect((logged?.err as { message?: string }).message).toMatch(
        new RegExp(`a row of sessions \\(${session.sessionId}\\)[\\s\\S]*→ at personality`),
      );
    } finally {
      await t.close();
    }
  });
});

describe('documents written by earlier releases (MongoDB mappers)', () => {
  // No MongoDB server can run here (ENGINES.md): these are the functions its repositories read
  // every document through, given documents shaped as earlier releases stored them.
  it('an account from before verification, preferences and token versions', () => {
    const user = userFromDocument({
      _id: 'user-0001',
      name: 'Old',
      email: 'old@example.com',
      passwordHash: 'hash',
      bio: '',
      language: 'es',
      theme: 'dark',
      emailNotifications: true,
      pushNotifications: true,
      plan: 'free',
      role: 'user',
      avatar: null,
      stripeCustomerId: null,
      createdAt: T0,
    });
    expect(user).toMatchObject({ id: 'user-0001', emailVerified: false });
    expect(user).not.toHaveProperty('_id');
  });

  it('a session from before title sources, contexts, scores and dominant emotions', () => {
    expect(
      stateFromDocument(
        {
          _id: 'session-0001',
          userId: 'user-0001',
          title: 'Mine',
          personality: 'default',
          createdAt: T0,
          updatedAt: T0,
        },
        4,
      ),
    ).toStrictEqual({
      session: {
        sessionId: 'session-0001',
        title: 'Mine',
        personality: 'default',
        createdAt: T0,
        updatedAt: T0,
        messageCount: 4,
        dominantEmotion: null,
      },
      titleSource: 'user',
      context: null,
      emotionScores: {},
    });
  });

  it('a message from before gestures, voices and avatars were kept with it', () => {
    const document = {
      _id: 'm-1',
      sessionId: 'session-0001',
      userId: 'user-0001',
      role: 'user' as const,
      content: 'hola',
      createdAt: T1,
      clientMessageId: 'c-1',
      replyTo: null,
      emotion: null,
      emotionAnalysis: null,
      language: null,
      userLanguage: 'es' as const,
      personality: 'default' as const,
      audioUrl: null,
      isComplete: true,
    };
    expect(storedMessageFromDocument(document)).toMatchObject({
      gesture: null,
      voiceId: null,
      avatarId: null,
    });
    expect(messageFromDocument(document)).not.toHaveProperty('userId');
  });

  it('usage counted before voice time, and none at all, read as zeros', () => {
    expect(usageFromDocument({ userId: 'user-0001', period: '2024-01', messages: 3 })).toStrictEqual({
      messages: 3,
      voiceSeconds: 0,
    });
    expect(usageFromDocument(null)).toStrictEqual({ messages: 0, voiceSeconds: 0 });
  });
});
