import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './embedded/index.ts';
import { MIGRATIONS, migrate } from './embedded/migrations.ts';
import { openMongoStorage } from './mongodb/index.ts';
import { openStorage } from './index.ts';
import {
  DEFAULT_PREFERENCES,
  DuplicateKeyError,
  type CustomAvatarProgress,
  type CustomAvatarRecord,
  type CustomVoiceRecord,
  type IdentityRecord,
  type NewMessage,
  type NewUser,
  type OneTimeTokenRecord,
  type RefreshTokenRecord,
  type SendWrite,
  type SessionRecord,
  type Storage,
  type UserPatch,
} from './types.ts';

/**
 * The storage contract: one suite per repository, run against every implementation. What it
 * asserts is what services may rely on; anything an implementation does beyond it is not promised.
 */

/** ISO time `seconds` after a fixed origin, so tests are deterministic and ordered. */
const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1) + seconds * 1000).toISOString();
const pad = (n: number) => String(n).padStart(4, '0');

function newUser(n: number, overrides: Partial<NewUser> = {}): NewUser {
  return {
    id: `user-${pad(n)}`,
    name: `User ${n}`,
    email: `user${n}@example.com`,
    passwordHash: `hash-${n}`,
    plan: 'free',
    role: 'user',
    language: 'es',
    theme: 'dark',
    createdAt: at(0),
    ...overrides,
  };
}

function newSession(userId: string, n: number, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sessionId: `session-${pad(n)}`,
    userId,
    title: `Session ${n}`,
    personality: 'default',
    createdAt: at(n),
    updatedAt: at(n),
    ...overrides,
  };
}

/** Message `n` of a session: its id and time both grow with n, as UUIDv7 ids do. */
function newMessage(
  userId: string,
  sessionId: string,
  n: number,
  overrides: Partial<NewMessage> = {},
): NewMessage {
  return {
    _id: `${sessionId}-message-${pad(n)}`,
    sessionId,
    userId,
    role: 'user',
    content: `message ${n}`,
    createdAt: at(n),
    clientMessageId: null,
    replyTo: null,
    emotion: null,
    emotionAnalysis: null,
    language: null,
    userLanguage: null,
    personality: null,
    audioUrl: null,
    isComplete: true,
    ...overrides,
  };
}

function newToken(
  userId: string,
  name: string,
  overrides: Partial<RefreshTokenRecord> = {},
): RefreshTokenRecord {
  return {
    tokenHash: `hash-of-${name}`,
    userId,
    familyId: 'family-1',
    expiresAt: at(86_400),
    createdAt: at(0),
    revokedAt: null,
    replacedBy: null,
    ...overrides,
  };
}

function newOneTimeToken(
  userId: string,
  name: string,
  overrides: Partial<OneTimeTokenRecord> = {},
): OneTimeTokenRecord {
  return {
    tokenHash: `link-hash-of-${name}`,
    userId,
    kind: 'reset',
    createdAt: at(0),
    expiresAt: at(3600),
    usedAt: null,
    ...overrides,
  };
}

function newIdentity(
  userId: string,
  subject: string,
  overrides: Partial<IdentityRecord> = {},
): IdentityRecord {
  return {
    provider: 'google',
    subject,
    userId,
    email: `${subject}@gmail.com`,
    createdAt: at(0),
    ...overrides,
  };
}

/** Every key at any depth: a driver's extra fields must never reach callers. */
function keysDeep(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) keysDeep(item, keys);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      keys.add(key);
      keysDeep(child, keys);
    }
  }
  return keys;
}

export function describeStorageContract(name: string, open: () => Promise<Storage>): void {
  describe(`${name} storage contract`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(async () => {
      await storage.close();
    });

    /** A stored user and one of their sessions, the usual starting point. */
    async function givenUserWithSession(n: number) {
      const user = await storage.users.create(newUser(n));
      const session = newSession(user.id, n);
      await storage.sessions.create(session);
      return { userId: user.id, sessionId: session.sessionId };
    }

    describe('users', () => {
      it('creates a user with the profile defaults and reads it back by id', async () => {
        const created = await storage.users.create(newUser(1));
        const expected = {
          ...newUser(1),
          bio: '',
          emailNotifications: true,
          pushNotifications: true,
          avatar: null,
          stripeCustomerId: null,
          emailVerified: false,
        };
        expect(created).toStrictEqual(expected);
        expect(await storage.users.findById('user-0001')).toStrictEqual(expected);
      });

      it('stores emails lower-case and finds them whatever their case', async () => {
        await storage.users.create(newUser(1, { email: 'Ana.Garcia@Example.COM' }));
        expect((await storage.users.findByEmail('ana.garcia@example.com'))?.id).toBe('user-0001');
        expect((await storage.users.findByEmail('ANA.GARCIA@EXAMPLE.COM'))?.email).toBe(
          'ana.garcia@example.com',
        );
      });

      it('refuses a second account with the same email, in any case', async () => {
        await storage.users.create(newUser(1, { email: 'ana@example.com' }));
        const attempt = storage.users.create(newUser(2, { email: 'ANA@example.com' }));
        await expect(attempt).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(attempt).rejects.toMatchObject({ key: 'email' });
        expect(await storage.users.findById('user-0002')).toBeNull();
      });

      it('reads an unknown id or email as null', async () => {
        expect(await storage.users.findById('nobody')).toBeNull();
        expect(await storage.users.findByEmail('nobody@example.com')).toBeNull();
      });

      it('stores emailVerified when given', async () => {
        const created = await storage.users.create(newUser(1, { emailVerified: true }));
        expect(created.emailVerified).toBe(true);
        expect((await storage.users.findById('user-0001'))?.emailVerified).toBe(true);
      });

      it('updates only the fields in the patch, and returns the record as stored', async () => {
        const created = await storage.users.create(newUser(1));

        const renamed = await storage.users.update('user-0001', { name: 'Ana', bio: 'Hola' });
        expect(renamed).toStrictEqual({ ...created, name: 'Ana', bio: 'Hola' });

        const everything: Required<UserPatch> = {
          name: 'Ana María',
          bio: '',
          language: 'en',
          theme: 'light',
          emailNotifications: false,
          pushNotifications: false,
          passwordHash: 'new-hash',
          emailVerified: true,
          role: 'admin',
          plan: 'pro',
        };
        const changed = await storage.users.update('user-0001', everything);
        expect(changed).toStrictEqual({ ...created, ...everything });
        expect(await storage.users.findById('user-0001')).toStrictEqual(changed);

        // Booleans go back as well as forth, and an empty patch changes nothing.
        const back = await storage.users.update('user-0001', {
          emailNotifications: true,
          emailVerified: false,
        });
        expect(back).toStrictEqual({ ...changed, emailNotifications: true, emailVerified: false });
        expect(await storage.users.update('user-0001', {})).toStrictEqual(back);
        expect(await storage.users.findById('user-0001')).toStrictEqual(back);
      });

      it('never changes the email (nor other fields a patch smuggles in)', async () => {
        const created = await storage.users.create(newUser(1));
        const smuggled = {
          email: 'other@example.com',
          id: 'user-9999',
          createdAt: at(99),
          stripeCustomerId: 'cus_1',
          name: 'Renamed',
        } as UserPatch;

        expect(await storage.users.update('user-0001', smuggled)).toStrictEqual({
          ...created,
          name: 'Renamed',
        });
        expect(await storage.users.findByEmail('other@example.com')).toBeNull();
        expect((await storage.users.findByEmail('user1@example.com'))?.name).toBe('Renamed');
        expect(await storage.users.findById('user-9999')).toBeNull();
      });

      it('updates an unknown user to null', async () => {
        expect(await storage.users.update('nobody', { name: 'x' })).toBeNull();
        expect(await storage.users.update('nobody', {})).toBeNull();
      });

      it('A-12 starts the token version at 0 and bumps it atomically, once per call', async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
        expect(await storage.users.tokenVersion('user-0001')).toBe(0);
        const bumped = await Promise.all([1, 2, 3].map(() => storage.users.bumpTokenVersion('user-0001')));
        expect([...bumped].sort()).toEqual([1, 2, 3]);
        expect(await storage.users.tokenVersion('user-0001')).toBe(3);
        expect(await storage.users.tokenVersion('user-0002')).toBe(0);
        expect(await storage.users.tokenVersion('nobody')).toBeNull();
        expect(await storage.users.bumpTokenVersion('nobody')).toBeNull();
      });

      it('reads the default preferences until some are saved, and null for an unknown user', async () => {
        await storage.users.create(newUser(1));
        expect(await storage.users.getPreferences('user-0001')).toStrictEqual(DEFAULT_PREFERENCES);
        expect(await storage.users.getPreferences('nobody')).toBeNull();
        expect(await storage.users.updatePreferences('nobody', { voice: 'v' })).toBeNull();
      });

      it('merges saved preferences into the stored ones', async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));

        const first = await storage.users.updatePreferences('user-0001', {
          avatar: 'avatar-1',
          onboardingCompleted: true,
        });
        expect(first).toStrictEqual({
          ...DEFAULT_PREFERENCES,
          avatar: 'avatar-1',
          onboardingCompleted: true,
        });

        const second = await storage.users.updatePreferences('user-0001', {
          personality: 'creative',
          theme: 'light',
          defaultVoiceId: 'voice-2',
        });
        const expected = {
          ...DEFAULT_PREFERENCES,
          avatar: 'avatar-1',
          onboardingCompleted: true,
          personality: 'creative',
          theme: 'light',
          defaultVoiceId: 'voice-2',
        };
        expect(second).toStrictEqual(expected);
        expect(await storage.users.getPreferences('user-0001')).toStrictEqual(expected);

        // null is a value (clearing a choice); an empty patch changes nothing.
        const cleared = await storage.users.updatePreferences('user-0001', { avatar: null });
        expect(cleared).toStrictEqual({ ...expected, avatar: null });
        expect(await storage.users.updatePreferences('user-0001', {})).toStrictEqual(cleared);

        // Another user's preferences and the profile are untouched.
        expect(await storage.users.getPreferences('user-0002')).toStrictEqual(DEFAULT_PREFERENCES);
        expect((await storage.users.findById('user-0001'))?.theme).toBe('dark');
      });

      it('keeps User.avatar as the chosen avatar of the preferences (A-14)', async () => {
        await storage.users.create(newUser(1));
        const avatarOf = async () => (await storage.users.findById('user-0001'))?.avatar;
        expect(await avatarOf()).toBeNull();
        await storage.users.updatePreferences('user-0001', { avatar: 'witch' });
        expect(await avatarOf()).toBe('witch');
        await storage.users.updatePreferences('user-0001', { selectedAvatarId: 'elf', avatar: 'elf' });
        expect(await avatarOf()).toBe('elf');
        await storage.users.updatePreferences('user-0001', { voice: 'v' });
        expect(await avatarOf()).toBe('elf');
        await storage.users.updatePreferences('user-0001', { selectedAvatarId: null, avatar: null });
        expect(await avatarOf()).toBeNull();
      });

      it('keeps every field of concurrent preference patches', async () => {
        await storage.users.create(newUser(1));
        await Promise.all([
          storage.users.updatePreferences('user-0001', { avatar: 'a' }),
          storage.users.updatePreferences('user-0001', { voice: 'v' }),
          storage.users.updatePreferences('user-0001', { selectedAvatarId: 's' }),
          storage.users.updatePreferences('user-0001', { onboardingCompleted: true }),
        ]);
        expect(await storage.users.getPreferences('user-0001')).toStrictEqual({
          ...DEFAULT_PREFERENCES,
          avatar: 'a',
          voice: 'v',
          selectedAvatarId: 's',
          onboardingCompleted: true,
        });
      });

      it('stores only known preferences', async () => {
        await storage.users.create(newUser(1));
        const patch = { voice: 'v', extra: 'ignored' } as Partial<typeof DEFAULT_PREFERENCES>;
        expect(await storage.users.updatePreferences('user-0001', patch)).toStrictEqual({
          ...DEFAULT_PREFERENCES,
          voice: 'v',
        });
        expect(await storage.users.getPreferences('user-0001')).not.toHaveProperty('extra');
      });
    });

    describe('one-time tokens', () => {
      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('consumes a token once: the second use is null', async () => {
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'a'));
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(10))).toBe('user-0001');
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(11))).toBeNull();
      });

      it('lets only one of several concurrent uses win', async () => {
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'a'));
        const results = await Promise.all(
          Array.from({ length: 8 }, () => storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(10))),
        );
        expect(results.filter((userId) => userId !== null)).toEqual(['user-0001']);
      });

      it('refuses a token of another kind, without using it up', async () => {
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'a', { kind: 'verify' }));
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(10))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'verify', at(10))).toBe('user-0001');
      });

      it('refuses an expired token (expiry is exclusive), an unknown one and a used one', async () => {
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'a', { expiresAt: at(100) }));
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'b', { usedAt: at(5) }));
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(100))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(101))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-unknown', 'reset', at(10))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-b', 'reset', at(10))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(99))).toBe('user-0001');
      });

      it("revokes a user's unused tokens of one kind only", async () => {
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'a'));
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'b'));
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'verify', { kind: 'verify' }));
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0002', 'other'));

        await storage.oneTimeTokens.revokeForUser('user-0001', 'reset', at(10));

        expect(await storage.oneTimeTokens.consume('link-hash-of-a', 'reset', at(11))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-b', 'reset', at(11))).toBeNull();
        expect(await storage.oneTimeTokens.consume('link-hash-of-verify', 'verify', at(11))).toBe(
          'user-0001',
        );
        expect(await storage.oneTimeTokens.consume('link-hash-of-other', 'reset', at(11))).toBe('user-0002');

        // A link issued after the revocation works.
        await storage.oneTimeTokens.insert(newOneTimeToken('user-0001', 'c', { createdAt: at(12) }));
        expect(await storage.oneTimeTokens.consume('link-hash-of-c', 'reset', at(13))).toBe('user-0001');
      });
    });

    describe('identities', () => {
      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('links an identity and finds it by provider and subject', async () => {
        await storage.identities.link(newIdentity('user-0001', '123'));
        expect(await storage.identities.find('google', '123')).toStrictEqual(newIdentity('user-0001', '123'));
        expect(await storage.identities.find('github', '123')).toBeNull();
        expect(await storage.identities.find('google', '999')).toBeNull();
      });

      it('keeps an email of null', async () => {
        await storage.identities.link(newIdentity('user-0001', '123', { provider: 'github', email: null }));
        expect((await storage.identities.find('github', '123'))?.email).toBeNull();
      });

      it('refuses to link the same provider account twice, to anyone', async () => {
        await storage.identities.link(newIdentity('user-0001', '123'));
        const attempt = storage.identities.link(newIdentity('user-0002', '123', { createdAt: at(5) }));
        await expect(attempt).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(attempt).rejects.toMatchObject({ key: 'provider,subject' });
        expect(await storage.identities.find('google', '123')).toStrictEqual(newIdentity('user-0001', '123'));
        expect(await storage.identities.listForUser('user-0002')).toEqual([]);
      });

      it("lists one user's identities, oldest first", async () => {
        await storage.identities.link(
          newIdentity('user-0001', 'gh-1', { provider: 'github', createdAt: at(20) }),
        );
        await storage.identities.link(newIdentity('user-0001', 'g-1', { createdAt: at(10) }));
        await storage.identities.link(newIdentity('user-0002', 'g-2', { createdAt: at(5) }));

        expect(await storage.identities.listForUser('user-0001')).toStrictEqual([
          newIdentity('user-0001', 'g-1', { createdAt: at(10) }),
          newIdentity('user-0001', 'gh-1', { provider: 'github', createdAt: at(20) }),
        ]);
        expect(await storage.identities.listForUser('user-unknown')).toEqual([]);
      });
    });

    describe('usage', () => {
      const zero = { messages: 0, voiceSeconds: 0 };
      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('reads zeros when nothing was counted', async () => {
        expect(await storage.usage.get('user-0001', '2025-01')).toStrictEqual(zero);
      });

      it('counts messages up to the limit and no further', async () => {
        for (let n = 1; n <= 3; n++) {
          expect(await storage.usage.tryCountMessage('user-0001', '2025-01', 3)).toStrictEqual({
            counted: true,
            usage: { messages: n, voiceSeconds: 0 },
          });
        }
        expect(await storage.usage.tryCountMessage('user-0001', '2025-01', 3)).toStrictEqual({
          counted: false,
          usage: { messages: 3, voiceSeconds: 0 },
        });
        // A higher limit (an upgrade) lets counting go on.
        expect(await storage.usage.tryCountMessage('user-0001', '2025-01', 4)).toMatchObject({
          counted: true,
          usage: { messages: 4 },
        });
        expect(await storage.usage.get('user-0001', '2025-01')).toStrictEqual({
          messages: 4,
          voiceSeconds: 0,
        });
      });

      it('stops exactly at the limit under concurrent calls', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, () => storage.usage.tryCountMessage('user-0001', '2025-01', 10)),
        );
        expect(results.filter((result) => result.counted)).toHaveLength(10);
        expect(results.every((result) => result.usage.messages <= 10)).toBe(true);
        expect((await storage.usage.get('user-0001', '2025-01')).messages).toBe(10);
      });

      it('always counts without a limit, and counts nothing with a limit of 0', async () => {
        for (let n = 0; n < 5; n++) await storage.usage.tryCountMessage('user-0001', '2025-01', null);
        expect(await storage.usage.tryCountMessage('user-0001', '2025-01', null)).toStrictEqual({
          counted: true,
          usage: { messages: 6, voiceSeconds: 0 },
        });
        expect(await storage.usage.tryCountMessage('user-0002', '2025-01', 0)).toStrictEqual({
          counted: false,
          usage: zero,
        });
        await expect(storage.usage.tryCountMessage('user-0001', '2025-01', -1)).rejects.toBeInstanceOf(
          RangeError,
        );
        await expect(storage.usage.tryCountMessage('user-0001', '2025-01', 1.5)).rejects.toBeInstanceOf(
          RangeError,
        );
      });

      it('adds voice seconds, beside the message count', async () => {
        expect(await storage.usage.addVoiceSeconds('user-0001', '2025-01', 12)).toStrictEqual({
          messages: 0,
          voiceSeconds: 12,
        });
        await storage.usage.tryCountMessage('user-0001', '2025-01', null);
        expect(await storage.usage.addVoiceSeconds('user-0001', '2025-01', 2.5)).toStrictEqual({
          messages: 1,
          voiceSeconds: 14.5,
        });
        await Promise.all(
          Array.from({ length: 10 }, () => storage.usage.addVoiceSeconds('user-0001', '2025-01', 1)),
        );
        expect(await storage.usage.get('user-0001', '2025-01')).toStrictEqual({
          messages: 1,
          voiceSeconds: 24.5,
        });
        await expect(storage.usage.addVoiceSeconds('user-0001', '2025-01', -1)).rejects.toBeInstanceOf(
          RangeError,
        );
      });

      it('keeps periods and users apart', async () => {
        await storage.usage.tryCountMessage('user-0001', '2025-01', 1);
        await storage.usage.addVoiceSeconds('user-0001', '2025-01', 30);
        expect(await storage.usage.tryCountMessage('user-0001', '2025-02', 1)).toStrictEqual({
          counted: true,
          usage: { messages: 1, voiceSeconds: 0 },
        });
        expect(await storage.usage.tryCountMessage('user-0002', '2025-01', 1)).toStrictEqual({
          counted: true,
          usage: { messages: 1, voiceSeconds: 0 },
        });
        expect(await storage.usage.get('user-0001', '2025-01')).toStrictEqual({
          messages: 1,
          voiceSeconds: 30,
        });
      });

      it("resets one period's counters only, and counting starts again", async () => {
        await storage.usage.tryCountMessage('user-0001', '2025-01', 2);
        await storage.usage.tryCountMessage('user-0001', '2025-01', 2);
        await storage.usage.addVoiceSeconds('user-0001', '2025-01', 30);
        await storage.usage.tryCountMessage('user-0001', '2025-02', 2);
        await storage.usage.tryCountMessage('user-0002', '2025-01', 2);

        await storage.usage.reset('user-0001', '2025-01');
        await storage.usage.reset('user-0001', '2025-12');

        expect(await storage.usage.get('user-0001', '2025-01')).toStrictEqual(zero);
        expect(await storage.usage.get('user-0001', '2025-12')).toStrictEqual(zero);
        expect((await storage.usage.get('user-0001', '2025-02')).messages).toBe(1);
        expect((await storage.usage.get('user-0002', '2025-01')).messages).toBe(1);
        expect((await storage.usage.tryCountMessage('user-0001', '2025-01', 2)).counted).toBe(true);
      });
    });

    describe('refresh tokens', () => {
      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('stores a token and finds it by hash', async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        expect(await storage.refreshTokens.findByHash('hash-of-a')).toStrictEqual(newToken('user-0001', 'a'));
        expect(await storage.refreshTokens.findByHash('hash-of-unknown')).toBeNull();
      });

      it('rotates a token once only: a second rotation (reuse or race) loses', async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        expect(await storage.refreshTokens.markRotated('hash-of-a', 'hash-of-b', at(10))).toBe(true);
        expect(await storage.refreshTokens.markRotated('hash-of-a', 'hash-of-c', at(20))).toBe(false);
        expect(await storage.refreshTokens.findByHash('hash-of-a')).toMatchObject({
          revokedAt: at(10),
          replacedBy: 'hash-of-b',
        });
      });

      it('lets only one of several concurrent rotations win', async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        const results = await Promise.all(
          ['b', 'c', 'd', 'e'].map((next) =>
            storage.refreshTokens.markRotated('hash-of-a', `hash-of-${next}`, at(10)),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('does not rotate an unknown or revoked token', async () => {
        expect(await storage.refreshTokens.markRotated('hash-of-unknown', 'hash-of-b', at(10))).toBe(false);
        await storage.refreshTokens.insert(newToken('user-0001', 'a', { revokedAt: at(5) }));
        expect(await storage.refreshTokens.markRotated('hash-of-a', 'hash-of-b', at(10))).toBe(false);
      });

      it('revokes a whole family, keeping earlier revocation times and other families', async () => {
        await storage.refreshTokens.insert(
          newToken('user-0001', 'a', { revokedAt: at(5), replacedBy: 'hash-of-b' }),
        );
        await storage.refreshTokens.insert(newToken('user-0001', 'b'));
        await storage.refreshTokens.insert(newToken('user-0001', 'other', { familyId: 'family-2' }));

        await storage.refreshTokens.revokeFamily('family-1', at(10));

        expect((await storage.refreshTokens.findByHash('hash-of-a'))?.revokedAt).toBe(at(5));
        expect((await storage.refreshTokens.findByHash('hash-of-b'))?.revokedAt).toBe(at(10));
        expect((await storage.refreshTokens.findByHash('hash-of-other'))?.revokedAt).toBeNull();
      });

      it("revokes all of one user's tokens and no one else's", async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        await storage.refreshTokens.insert(newToken('user-0001', 'b', { familyId: 'family-2' }));
        await storage.refreshTokens.insert(newToken('user-0002', 'c', { familyId: 'family-3' }));

        await storage.refreshTokens.revokeAllForUser('user-0001', at(10));

        expect((await storage.refreshTokens.findByHash('hash-of-a'))?.revokedAt).toBe(at(10));
        expect((await storage.refreshTokens.findByHash('hash-of-b'))?.revokedAt).toBe(at(10));
        expect((await storage.refreshTokens.findByHash('hash-of-c'))?.revokedAt).toBeNull();
      });

      it('A-12 a family is active while it holds a token neither rotated nor revoked', async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        expect(await storage.refreshTokens.familyActive('family-1')).toBe(true);
        await storage.refreshTokens.insert(newToken('user-0001', 'b'));
        await storage.refreshTokens.markRotated('hash-of-a', 'hash-of-b', at(10));
        expect(await storage.refreshTokens.familyActive('family-1')).toBe(true);
        await storage.refreshTokens.revokeFamily('family-1', at(20));
        expect(await storage.refreshTokens.familyActive('family-1')).toBe(false);
        expect(await storage.refreshTokens.familyActive('family-unknown')).toBe(false);
      });

      it('A-3 refuses a second token with the same hash as a duplicate key', async () => {
        await storage.refreshTokens.insert(newToken('user-0001', 'a'));
        await expect(storage.refreshTokens.insert(newToken('user-0001', 'a'))).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
      });
    });

    describe('sessions', () => {
      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('creates a session and finds it, without its owner and with no messages', async () => {
        const expected = {
          sessionId: 'session-0001',
          title: 'Session 1',
          personality: 'default',
          createdAt: at(1),
          updatedAt: at(1),
          messageCount: 0,
          dominantEmotion: null,
        };
        expect(await storage.sessions.create(newSession('user-0001', 1))).toStrictEqual(expected);
        expect(await storage.sessions.find('user-0001', 'session-0001')).toStrictEqual(expected);
        expect(await storage.sessions.find('user-0001', 'session-unknown')).toBeNull();
      });

      it('keeps a title of null', async () => {
        await storage.sessions.create(newSession('user-0001', 1, { title: null }));
        expect((await storage.sessions.find('user-0001', 'session-0001'))?.title).toBeNull();
      });

      it('counts the messages of a session', async () => {
        await storage.sessions.create(newSession('user-0001', 1));
        await storage.sessions.create(newSession('user-0001', 2));
        for (const n of [1, 2, 3]) await storage.messages.insert(newMessage('user-0001', 'session-0001', n));
        await storage.messages.insert(newMessage('user-0001', 'session-0002', 1));

        expect((await storage.sessions.find('user-0001', 'session-0001'))?.messageCount).toBe(3);
        const counts = (await storage.sessions.list('user-0001')).map((s) => [s.sessionId, s.messageCount]);
        expect(counts).toEqual([
          ['session-0002', 1],
          ['session-0001', 3],
        ]);

        // A duplicate is not counted; a deleted message no longer is; another user's never was.
        await storage.messages.insert(
          newMessage('user-0001', 'session-0002', 2, { clientMessageId: 'c-2', role: 'user' }),
        );
        await storage.messages.insert(
          newMessage('user-0001', 'session-0002', 3, { clientMessageId: 'c-2', role: 'user' }),
        );
        expect(await storage.messages.delete('user-0001', 'session-0001-message-0002')).toBe(true);
        expect(await storage.messages.delete('user-0002', 'session-0001-message-0003')).toBe(false);
        const after = (await storage.sessions.list('user-0001')).map((s) => [s.sessionId, s.messageCount]);
        expect(after).toEqual([
          ['session-0002', 2],
          ['session-0001', 2],
        ]);
        expect((await storage.sessions.find('user-0001', 'session-0001'))?.messageCount).toBe(2);
      });

      it("lists one user's sessions, most recently updated first, ties by id descending", async () => {
        await storage.sessions.create(newSession('user-0001', 1, { updatedAt: at(50) }));
        await storage.sessions.create(newSession('user-0001', 2, { updatedAt: at(10) }));
        await storage.sessions.create(newSession('user-0001', 3, { updatedAt: at(50) }));
        await storage.sessions.create(newSession('user-0002', 4, { updatedAt: at(99) }));

        const ids = (await storage.sessions.list('user-0001')).map((s) => s.sessionId);
        expect(ids).toEqual(['session-0003', 'session-0001', 'session-0002']);
        expect(await storage.sessions.list('user-unknown')).toEqual([]);
      });

      it('updates only the fields in the patch', async () => {
        await storage.sessions.create(newSession('user-0001', 1));

        const renamed = await storage.sessions.update('user-0001', 'session-0001', { title: 'Renamed' });
        expect(renamed).toMatchObject({ title: 'Renamed', personality: 'default', updatedAt: at(1) });

        const changed = await storage.sessions.update('user-0001', 'session-0001', {
          personality: 'formal',
          updatedAt: at(30),
        });
        expect(changed).toMatchObject({ title: 'Renamed', personality: 'formal', updatedAt: at(30) });

        const cleared = await storage.sessions.update('user-0001', 'session-0001', { title: null });
        expect(cleared).toMatchObject({ title: null, personality: 'formal', updatedAt: at(30) });

        expect(await storage.sessions.update('user-0001', 'session-0001', {})).toStrictEqual(cleared);
        expect(await storage.sessions.find('user-0001', 'session-0001')).toStrictEqual(cleared);
      });

      it('C-11 reads the state of a new session: no context, no scores, the title source given', async () => {
        await storage.sessions.create(newSession('user-0001', 1, { title: null }));
        await storage.sessions.create(newSession('user-0001', 2, { titleSource: 'user' }));
        // A title of unknown origin counts as the user's (sessions stored before title sources).
        await storage.sessions.create(newSession('user-0001', 3));

        const untitled = await storage.sessions.state('user-0001', 'session-0001');
        expect(untitled).toStrictEqual({
          session: await storage.sessions.find('user-0001', 'session-0001'),
          titleSource: null,
          context: null,
          emotionScores: {},
        });
        expect((await storage.sessions.state('user-0001', 'session-0002'))?.titleSource).toBe('user');
        expect((await storage.sessions.state('user-0001', 'session-0003'))?.titleSource).toBe('user');
        expect(await storage.sessions.state('user-0002', 'session-0001')).toBeNull();
        expect(await storage.sessions.state('user-0001', 'session-unknown')).toBeNull();
      });

      it('C-11/C-12 stores context, emotion scores, dominant emotion and title source with a patch', async () => {
        await storage.sessions.create(newSession('user-0001', 1, { title: null }));
        const context = {
          summary: 'Conversación con Lucía (2 intercambios). Temas: examen.',
          topics: ['examen'],
          names: ['Lucía', 'Sara'],
          keyPoints: ['Me llamo Lucía', 'Mañana tengo mi examen'],
          userName: 'Lucía',
          exchanges: 2,
        };
        const updated = await storage.sessions.update('user-0001', 'session-0001', {
          title: 'Tu examen de mañana',
          titleSource: 'auto',
          context,
          emotionScores: { sad: 0.6, calm: 0.14 },
          dominantEmotion: 'sad',
        });
        expect(updated).toMatchObject({ title: 'Tu examen de mañana', dominantEmotion: 'sad' });
        expect(await storage.sessions.state('user-0001', 'session-0001')).toStrictEqual({
          session: updated,
          titleSource: 'auto',
          context,
          emotionScores: { sad: 0.6, calm: 0.14 },
        });
        expect((await storage.sessions.list('user-0001'))[0]?.dominantEmotion).toBe('sad');

        // Absent fields keep their value; another user's session is not touched.
        await storage.sessions.update('user-0001', 'session-0001', { personality: 'formal' });
        expect(
          await storage.sessions.update('user-0002', 'session-0001', { dominantEmotion: 'happy' }),
        ).toBeNull();
        const after = await storage.sessions.state('user-0001', 'session-0001');
        expect(after).toMatchObject({
          titleSource: 'auto',
          context,
          emotionScores: { sad: 0.6, calm: 0.14 },
        });
        expect(after?.session).toMatchObject({ personality: 'formal', dominantEmotion: 'sad' });
      });

      it('returns the message count with an update', async () => {
        await storage.sessions.create(newSession('user-0001', 1));
        await storage.messages.insert(newMessage('user-0001', 'session-0001', 1));
        const updated = await storage.sessions.update('user-0001', 'session-0001', { title: 'x' });
        expect(updated?.messageCount).toBe(1);
      });

      it("treats another user's session as absent: find, update and delete do nothing", async () => {
        await storage.sessions.create(newSession('user-0001', 1));
        const before = await storage.sessions.find('user-0001', 'session-0001');

        expect(await storage.sessions.find('user-0002', 'session-0001')).toBeNull();
        expect(await storage.sessions.update('user-0002', 'session-0001', { title: 'mine now' })).toBeNull();
        expect(await storage.sessions.delete('user-0002', 'session-0001')).toBe(false);
        expect(await storage.sessions.list('user-0002')).toEqual([]);

        expect(await storage.sessions.find('user-0001', 'session-0001')).toStrictEqual(before);
      });

      it('deletes a session together with its messages, and only once', async () => {
        await storage.sessions.create(newSession('user-0001', 1));
        await storage.sessions.create(newSession('user-0001', 2));
        await storage.messages.insert(newMessage('user-0001', 'session-0001', 1, { clientMessageId: 'c-1' }));
        await storage.messages.insert(newMessage('user-0001', 'session-0001', 2));
        await storage.messages.insert(newMessage('user-0001', 'session-0002', 3));

        expect(await storage.sessions.delete('user-0001', 'session-0001')).toBe(true);

        expect(await storage.sessions.find('user-0001', 'session-0001')).toBeNull();
        expect(await storage.messages.page('user-0001', 'session-0001', 1, 50)).toEqual({
          items: [],
          total: 0,
        });
        expect(await storage.messages.findByClientMessageId('user-0001', 'c-1')).toBeNull();
        expect(await storage.messages.countByUser('user-0001')).toBe(1);
        expect(await storage.sessions.delete('user-0001', 'session-0001')).toBe(false);
      });
    });

    describe('messages', () => {
      it('stores a message and returns it as read back, without its owner', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const input = newMessage(userId, sessionId, 1, {
          role: 'assistant',
          replyTo: 'some-user-message',
          emotion: 'happy',
          emotionAnalysis: { emotion: 'happy', intensity: 0.75, confidence: 0.5 },
          language: 'en',
          userLanguage: 'es',
          personality: 'creative',
          audioUrl: '/audio/1.mp3',
          isComplete: false,
        });
        const { userId: _owner, ...expected } = input;

        const { message, duplicate } = await storage.messages.insert(input);

        expect(duplicate).toBe(false);
        expect(message).toStrictEqual(expected);
        expect((await storage.messages.page(userId, sessionId, 1, 50)).items).toStrictEqual([expected]);
      });

      it('stores a resent clientMessageId once and returns the first message (SPEC.md C-2)', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const first = await storage.messages.insert(
          newMessage(userId, sessionId, 1, { clientMessageId: 'c-1' }),
        );

        const again = await storage.messages.insert(
          newMessage(userId, sessionId, 2, { clientMessageId: 'c-1', content: 'the resend' }),
        );

        expect(again).toStrictEqual({ message: first.message, duplicate: true });
        expect(await storage.messages.countByUser(userId)).toBe(1);
        expect(await storage.messages.findByClientMessageId(userId, 'c-1')).toStrictEqual(first.message);
      });

      it("stores a reply's row with its message in one write, and none with a duplicate (issue 14)", async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const replyTo = (n: number, to: string) =>
          newMessage(userId, sessionId, n, {
            role: 'assistant',
            replyTo: to,
            content: '',
            isComplete: false,
          });
        const first = await storage.messages.insert(
          newMessage(userId, sessionId, 1, { clientMessageId: 'c-1' }),
          {
            reply: replyTo(2, newMessage(userId, sessionId, 1)._id),
          },
        );
        const again = await storage.messages.insert(
          newMessage(userId, sessionId, 3, { clientMessageId: 'c-1', content: 'the resend' }),
          { reply: replyTo(4, newMessage(userId, sessionId, 3)._id) },
        );

        expect(again.duplicate).toBe(true);
        expect(await storage.messages.findReplyTo(userId, first.message._id)).toMatchObject({
          _id: newMessage(userId, sessionId, 2)._id,
          isComplete: false,
        });
        expect(await storage.messages.countByUser(userId)).toBe(2);
      });

      it('scopes clientMessageId per user and never dedupes messages without one', async () => {
        const one = await givenUserWithSession(1);
        const two = await givenUserWithSession(2);
        await storage.messages.insert(newMessage(one.userId, one.sessionId, 1, { clientMessageId: 'c-1' }));
        const other = await storage.messages.insert(
          newMessage(two.userId, two.sessionId, 1, { clientMessageId: 'c-1' }),
        );
        await storage.messages.insert(newMessage(one.userId, one.sessionId, 2));
        const reply = await storage.messages.insert(newMessage(one.userId, one.sessionId, 3));

        expect(other.duplicate).toBe(false);
        expect(reply.duplicate).toBe(false);
        expect(await storage.messages.countByUser(one.userId)).toBe(3);
        expect(await storage.messages.findByClientMessageId(two.userId, 'c-1')).toStrictEqual(other.message);
        expect(await storage.messages.findByClientMessageId(one.userId, 'c-unknown')).toBeNull();
      });

      it('refuses a second message with the same _id', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.messages.insert(newMessage(userId, sessionId, 1));
        await expect(
          storage.messages.insert(newMessage(userId, sessionId, 1, { clientMessageId: 'c-new' })),
        ).rejects.toThrow();
      });

      describe('paging 120 messages by 50', () => {
        let userId: string;
        let sessionId: string;
        const contents = (items: { content: string }[]) => items.map((m) => m.content);
        const range = (from: number, to: number) =>
          Array.from({ length: to - from + 1 }, (_, i) => `message ${from + i}`);

        beforeEach(async () => {
          ({ userId, sessionId } = await givenUserWithSession(1));
          // Inserted newest first, so order can only come from (createdAt, _id).
          for (let n = 120; n >= 1; n--) await storage.messages.insert(newMessage(userId, sessionId, n));
        });

        it('page 1 is the newest 50, oldest first', async () => {
          const page = await storage.messages.page(userId, sessionId, 1, 50);
          expect(page.total).toBe(120);
          expect(contents(page.items)).toEqual(range(71, 120));
        });

        it('page 2 is the 50 before them', async () => {
          expect(contents((await storage.messages.page(userId, sessionId, 2, 50)).items)).toEqual(
            range(21, 70),
          );
        });

        it('page 3 is the oldest 20, and page 4 is empty', async () => {
          expect(contents((await storage.messages.page(userId, sessionId, 3, 50)).items)).toEqual(
            range(1, 20),
          );
          expect(await storage.messages.page(userId, sessionId, 4, 50)).toEqual({ items: [], total: 120 });
        });

        it('recentTurns(limit) is the last messages, oldest first, with what a history reads', async () => {
          const turns = await storage.messages.recentTurns(userId, sessionId, 3);
          expect(contents(turns)).toEqual(range(118, 120));
          expect(turns[0]).toEqual({
            _id: `${sessionId}-message-0118`,
            role: 'user',
            content: 'message 118',
            language: null,
          });
          expect(await storage.messages.recentTurns(userId, sessionId, 500)).toHaveLength(120);
        });

        it("reads another user's session as empty", async () => {
          await storage.users.create(newUser(2));
          expect(await storage.messages.page('user-0002', sessionId, 1, 50)).toEqual({ items: [], total: 0 });
          expect(await storage.messages.recentTurns('user-0002', sessionId, 10)).toEqual([]);
        });
      });

      it('orders by createdAt, then by _id among messages of the same time', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.messages.insert(newMessage(userId, sessionId, 1, { _id: 'b', createdAt: at(5) }));
        await storage.messages.insert(newMessage(userId, sessionId, 2, { _id: 'z', createdAt: at(1) }));
        await storage.messages.insert(newMessage(userId, sessionId, 3, { _id: 'a', createdAt: at(5) }));

        const ids = (messages: { _id: string }[]) => messages.map((m) => m._id);
        expect(ids(await storage.messages.recentTurns(userId, sessionId, 10))).toEqual(['z', 'a', 'b']);
        expect(ids((await storage.messages.page(userId, sessionId, 1, 2)).items)).toEqual(['a', 'b']);
        expect(ids((await storage.messages.page(userId, sessionId, 2, 2)).items)).toEqual(['z']);
      });

      it('refuses a page or size below 1 instead of reading it as "no limit"', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await expect(storage.messages.page(userId, sessionId, 0, 50)).rejects.toBeInstanceOf(RangeError);
        await expect(storage.messages.page(userId, sessionId, 1, 0)).rejects.toBeInstanceOf(RangeError);
        await expect(storage.messages.recentTurns(userId, sessionId, 0)).rejects.toBeInstanceOf(RangeError);
      });

      it('finds the reply stored for a user message, for its owner only', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.users.create(newUser(2));
        const question = await storage.messages.insert(
          newMessage(userId, sessionId, 1, { clientMessageId: 'c-1' }),
        );
        const reply = await storage.messages.insert(
          newMessage(userId, sessionId, 2, { role: 'assistant', replyTo: question.message._id }),
        );

        expect(await storage.messages.findReplyTo(userId, question.message._id)).toStrictEqual(reply.message);
        expect(await storage.messages.findReplyTo('user-0002', question.message._id)).toBeNull();
        expect(await storage.messages.findReplyTo(userId, reply.message._id)).toBeNull();
      });

      it('C-5 rewrites a reply as it streams and when it ends; null once it is gone', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.users.create(newUser(2));
        const question = await storage.messages.insert(newMessage(userId, sessionId, 1));
        await storage.messages.insert(
          newMessage(userId, sessionId, 2, {
            role: 'assistant',
            replyTo: question.message._id,
            content: '',
            isComplete: false,
          }),
        );
        const replyId = `${sessionId}-message-0002`;
        expect((await storage.messages.findReplyTo(userId, question.message._id))?.isComplete).toBe(false);

        // As a streaming reply rewrites it (C-5): committed, not waited on the disk for, read as written.
        const partial = await storage.messages.updateReply(
          userId,
          replyId,
          { content: 'Hola, ', isComplete: false, emotion: null, emotionAnalysis: null, gesture: null },
          { synced: false },
        );
        expect(partial).toMatchObject({ _id: replyId, content: 'Hola, ', isComplete: false, emotion: null });
        expect(await storage.messages.findReplyTo(userId, question.message._id)).toStrictEqual(partial);
        // Or without reading it back: only whether it was there.
        const patchOf = (content: string) => ({
          content,
          isComplete: false,
          emotion: null,
          emotionAnalysis: null,
          gesture: null,
        });
        expect(
          await storage.messages.rewriteReply(userId, replyId, patchOf('Hola, Lu'), { synced: false }),
        ).toBe(true);
        expect(await storage.messages.findReplyTo(userId, question.message._id)).toStrictEqual({
          ...partial,
          content: 'Hola, Lu',
        });
        expect(await storage.messages.rewriteReply('user-0002', replyId, patchOf('x'))).toBe(false);
        expect(await storage.messages.rewriteReply(userId, 'no-such-reply', patchOf('x'))).toBe(false);

        const analysis = { emotion: 'happy' as const, intensity: 0.6, confidence: 0.8 };
        const final = await storage.messages.updateReply(userId, replyId, {
          content: 'Hola, Lucía.',
          isComplete: true,
          emotion: 'happy',
          emotionAnalysis: analysis,
          gesture: 'greeting',
        });
        expect(final).toStrictEqual({
          ...(await storage.messages.findReplyTo(userId, question.message._id)),
          content: 'Hola, Lucía.',
          isComplete: true,
          emotion: 'happy',
          emotionAnalysis: analysis,
        });
        expect((await storage.messages.all(userId, sessionId)).at(-1)?.gesture).toBe('greeting');

        const patch = { content: 'x', isComplete: true, emotion: null, emotionAnalysis: null, gesture: null };
        expect(await storage.messages.updateReply('user-0002', replyId, patch)).toBeNull();
        expect(await storage.messages.delete('user-0002', replyId)).toBe(false);
        expect(await storage.messages.delete(userId, replyId)).toBe(true);
        expect(await storage.messages.delete(userId, replyId)).toBe(false);
        expect(await storage.messages.updateReply(userId, replyId, patch)).toBeNull();
        expect(await storage.messages.rewriteReply(userId, replyId, patch)).toBe(false);
        expect(await storage.messages.findReplyTo(userId, question.message._id)).toBeNull();
      });

      it('M-5 leases replies in flight, renews and ends the lease; rows that are gone are skipped', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const question = await storage.messages.insert(newMessage(userId, sessionId, 1));
        const reply = await storage.messages.insert(
          newMessage(userId, sessionId, 2, {
            role: 'assistant',
            replyTo: question.message._id,
            isComplete: false,
          }),
        );
        const replyId = reply.message._id;
        expect(await storage.messages.replyLease(replyId)).toBeNull();
        await storage.messages.leaseReplies([replyId, 'gone-0001'], 1_700_000_000_000);
        expect(await storage.messages.replyLease(replyId)).toBe(1_700_000_000_000);
        await storage.messages.leaseReplies([replyId], 1_700_000_010_000);
        expect(await storage.messages.replyLease(replyId)).toBe(1_700_000_010_000);
        await storage.messages.leaseReplies([], 1);
        expect(await storage.messages.replyLease(question.message._id)).toBeNull();
        await storage.messages.leaseReplies([replyId], null);
        expect(await storage.messages.replyLease(replyId)).toBeNull();
        expect(await storage.messages.replyLease('gone-0001')).toBeNull();
        // The lease is the instances' business: the message reads as before.
        expect(await storage.messages.findReplyTo(userId, question.message._id)).toStrictEqual(reply.message);
      });

      it('S-4/S-5/S-6 stores a reply audioUrl, finds it owner-scoped, lists and clears them', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.users.create(newUser(2));
        const question = await storage.messages.insert(newMessage(userId, sessionId, 1));
        await storage.messages.insert(
          newMessage(userId, sessionId, 2, { role: 'assistant', replyTo: question.message._id }),
        );
        const replyId = `${sessionId}-message-0002`;
        const base = {
          content: 'Hola.',
          isComplete: true,
          emotion: null,
          emotionAnalysis: null,
          gesture: null,
        };
        const url = `/audio/${replyId}.mp3`;
        expect(
          (await storage.messages.updateReply(userId, replyId, { ...base, audioUrl: url }))?.audioUrl,
        ).toBe(url);
        // An absent audioUrl keeps the stored one.
        expect((await storage.messages.updateReply(userId, replyId, base))?.audioUrl).toBe(url);
        expect((await storage.messages.findByAudioUrl(userId, url))?._id).toBe(replyId);
        expect(await storage.messages.findByAudioUrl('user-0002', url)).toBeNull();
        expect(await storage.messages.audioUrls(userId)).toEqual([url]);
        expect(await storage.messages.audioUrls('user-0002')).toEqual([]);
        expect(await storage.messages.clearAudioUrls('user-0002')).toBe(0);
        expect(await storage.messages.clearAudioUrls(userId)).toBe(1);
        expect(await storage.messages.findByAudioUrl(userId, url)).toBeNull();
        expect(await storage.messages.audioUrls(userId)).toEqual([]);
      });

      it('C-13 lists every message of a session with voice, avatar and gesture, oldest first', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.users.create(newUser(2));
        await storage.messages.insert(
          newMessage(userId, sessionId, 2, {
            role: 'assistant',
            gesture: 'nodding',
            voiceId: 'voice-a',
            avatarId: 'robot',
          }),
        );
        await storage.messages.insert(
          newMessage(userId, sessionId, 1, { voiceId: 'voice-a', avatarId: 'robot' }),
        );
        await storage.messages.insert(newMessage(userId, sessionId, 3));

        const all = await storage.messages.all(userId, sessionId);
        expect(all.map((m) => [m.content, m.gesture, m.voiceId, m.avatarId])).toEqual([
          ['message 1', null, 'voice-a', 'robot'],
          ['message 2', 'nodding', 'voice-a', 'robot'],
          ['message 3', null, null, null],
        ]);
        // Everywhere else a message has only the protocol's fields.
        expect(
          Object.keys((await storage.messages.recentTurns(userId, sessionId, 1))[0] ?? {}),
        ).not.toContain('voiceId');
        expect(await storage.messages.all('user-0002', sessionId)).toEqual([]);
      });

      it("counts a user's messages across sessions", async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.sessions.create(newSession(userId, 2));
        await storage.messages.insert(newMessage(userId, sessionId, 1));
        await storage.messages.insert(newMessage(userId, 'session-0002', 1));
        expect(await storage.messages.countByUser(userId)).toBe(2);
        expect(await storage.messages.countByUser('user-unknown')).toBe(0);
      });
    });

    describe('a send: its one write (issue 14)', () => {
      const PERIOD = '2025-01';
      /** Message `n` and its reply's row, as the submit service writes them. */
      const send = (userId: string, sessionId: string, n: number, overrides: Partial<SendWrite> = {}) => {
        const message = newMessage(userId, sessionId, n, { clientMessageId: `c-${n}` });
        return {
          message,
          reply: newMessage(userId, sessionId, n + 1, {
            role: 'assistant',
            replyTo: message._id,
            content: '',
            isComplete: false,
          }),
          count: { period: PERIOD, limit: 3 },
          ...overrides,
        };
      };
      const messagesOf = async (userId: string) => storage.messages.countByUser(userId);
      const counted = async (userId: string) => (await storage.usage.get(userId, PERIOD)).messages;

      it('stores the message and its row, counts the month and touches its session', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const written = await storage.sends.store(send(userId, sessionId, 10));
        const { userId: _owner, ...expected } = newMessage(userId, sessionId, 10, {
          clientMessageId: 'c-10',
        });
        expect(written).toMatchObject({
          kind: 'stored',
          session: { sessionId, updatedAt: at(10) },
          usage: { messages: 1, voiceSeconds: 0 },
        });
        expect(written.kind === 'stored' && written.message).toStrictEqual(expected);
        expect(await storage.messages.findReplyTo(userId, expected._id)).toMatchObject({
          content: '',
          isComplete: false,
        });
        expect((await storage.sessions.find(userId, sessionId))?.updatedAt).toBe(at(10));
        expect(await counted(userId)).toBe(1);
      });

      it('creates the session a first message starts, with it', async () => {
        const user = await storage.users.create(newUser(1));
        const session = newSession(user.id, 7, { title: null });
        const written = await storage.sends.store({
          ...send(user.id, session.sessionId, 10),
          newSession: session,
        });
        expect(written).toMatchObject({
          kind: 'stored',
          session: { sessionId: session.sessionId, messageCount: 0 },
        });
        expect((await storage.sessions.list(user.id)).map((s) => [s.sessionId, s.messageCount])).toEqual([
          [session.sessionId, 2],
        ]);
      });

      it('a resent clientMessageId: the first message back, nothing written or counted (C-2)', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const first = await storage.sends.store(send(userId, sessionId, 10));
        const again = await storage.sends.store({
          ...send(userId, sessionId, 20),
          message: newMessage(userId, sessionId, 20, { clientMessageId: 'c-10', content: 'the resend' }),
        });
        expect(first.kind).toBe('stored');
        if (first.kind === 'stored')
          expect(again).toStrictEqual({ kind: 'duplicate', message: first.message });
        expect(await messagesOf(userId)).toBe(2);
        expect(await counted(userId)).toBe(1);
      });

      it('the month at its limit: refused, with the count, and nothing written — not even a new session (L-3)', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.sends.store(send(userId, sessionId, 10, { count: { period: PERIOD, limit: 1 } }));
        const fresh = newSession(userId, 9);
        const refused = await storage.sends.store({
          ...send(userId, fresh.sessionId, 20, { count: { period: PERIOD, limit: 1 } }),
          newSession: fresh,
        });
        expect(refused).toStrictEqual({ kind: 'refused', usage: { messages: 1, voiceSeconds: 0 } });
        expect(await storage.sessions.find(userId, fresh.sessionId)).toBeNull();
        expect(await messagesOf(userId)).toBe(2);
        expect(
          await storage.sends.store(send(userId, sessionId, 30, { count: { period: PERIOD, limit: 0 } })),
        ).toMatchObject({
          kind: 'refused',
        });
      });

      it("another user's session, or one deleted: no-session, and no message", async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const other = await givenUserWithSession(2);
        expect(await storage.sends.store(send(other.userId, sessionId, 10))).toStrictEqual({
          kind: 'no-session',
        });
        await storage.sessions.delete(userId, sessionId);
        expect(await storage.sends.store(send(userId, sessionId, 20))).toStrictEqual({ kind: 'no-session' });
        expect(await messagesOf(userId)).toBe(0);
        expect(await messagesOf(other.userId)).toBe(0);
      });

      it('refuses a bad limit before writing anything', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await expect(
          storage.sends.store(send(userId, sessionId, 10, { count: { period: PERIOD, limit: -1 } })),
        ).rejects.toThrow(RangeError);
        expect(await messagesOf(userId)).toBe(0);
      });
    });

    describe('custom voices', () => {
      const voice = (
        userId: string,
        n: number,
        overrides: Partial<CustomVoiceRecord> = {},
      ): CustomVoiceRecord => ({
        id: `custom-${pad(n)}`,
        userId,
        name: `Voz ${n}`,
        description: 'Subida',
        category: 'femenina',
        language: 'español',
        gender: 'female',
        format: 'wav',
        originalName: `voz ${n}.wav`,
        file: `custom-${pad(n)}.wav`,
        size: 1000 * n,
        createdAt: at(n),
        analysis: {
          durationMs: 2500,
          decoded: true,
          rmsDb: -18.5,
          peakDb: -1.2,
          clippingRatio: 0,
          pitchHz: 221.4,
          pitchRangeHz: [200, 240],
          syllablesPerSecond: 4.2,
          warnings: ['short'],
        },
        speech: { variant: '+f3', pitch: 60, rate: 170 },
        ...overrides,
      });

      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('stores a voice with its analysis and reads it back, owner-scoped (VU-5)', async () => {
        await storage.customVoices.insert(voice('user-0001', 1));
        expect(await storage.customVoices.find('user-0001', 'custom-0001')).toStrictEqual(
          voice('user-0001', 1),
        );
        expect(await storage.customVoices.find('user-0002', 'custom-0001')).toBeNull();
        expect(await storage.customVoices.find('user-0001', 'custom-9999')).toBeNull();
      });

      it('keeps null analysis figures (a format it could not decode)', async () => {
        const partial = voice('user-0001', 1, {
          format: 'mp3',
          analysis: {
            durationMs: 3000,
            decoded: false,
            rmsDb: null,
            peakDb: null,
            clippingRatio: null,
            pitchHz: null,
            pitchRangeHz: null,
            syllablesPerSecond: null,
            warnings: ['not_decoded'],
          },
        });
        await storage.customVoices.insert(partial);
        expect(await storage.customVoices.find('user-0001', 'custom-0001')).toStrictEqual(partial);
      });

      it("lists one user's voices oldest first and counts their bytes", async () => {
        await storage.customVoices.insert(voice('user-0001', 3, { createdAt: at(30) }));
        await storage.customVoices.insert(voice('user-0001', 1, { createdAt: at(10) }));
        await storage.customVoices.insert(voice('user-0002', 2, { createdAt: at(20) }));
        const list = await storage.customVoices.listForUser('user-0001');
        expect(list.map((v) => v.id)).toEqual(['custom-0001', 'custom-0003']);
        expect(await storage.customVoices.usage('user-0001')).toEqual({ count: 2, bytes: 4000 });
        expect(await storage.customVoices.usage('user-0002')).toEqual({ count: 1, bytes: 2000 });
        expect(await storage.customVoices.usage('user-unknown')).toEqual({ count: 0, bytes: 0 });
        expect(await storage.customVoices.listForUser('user-unknown')).toEqual([]);
      });

      it("deletes only the owner's voice (VU-7)", async () => {
        await storage.customVoices.insert(voice('user-0001', 1));
        expect(await storage.customVoices.delete('user-0002', 'custom-0001')).toBe(false);
        expect(await storage.customVoices.find('user-0001', 'custom-0001')).not.toBeNull();
        expect(await storage.customVoices.delete('user-0001', 'custom-0001')).toBe(true);
        expect(await storage.customVoices.delete('user-0001', 'custom-0001')).toBe(false);
        expect(await storage.customVoices.usage('user-0001')).toEqual({ count: 0, bytes: 0 });
      });

      it('tells which of many ids any user has a voice with, in one call (VU-10)', async () => {
        await storage.customVoices.insert(voice('user-0002', 1));
        await storage.customVoices.insert(voice('user-0001', 3));
        const ids = ['custom-0001', 'custom-0002', 'custom-0003', "custom-' OR 1=1 --", 'custom-0001'];
        expect(await storage.customVoices.existing(ids)).toEqual(new Set(['custom-0001', 'custom-0003']));
        expect(await storage.customVoices.existing([])).toEqual(new Set());
        await storage.customVoices.delete('user-0002', 'custom-0001');
        expect(await storage.customVoices.existing(ids)).toEqual(new Set(['custom-0003']));
      });
    });

    describe('custom avatars', () => {
      const avatar = (
        userId: string,
        n: number,
        overrides: Partial<CustomAvatarRecord> = {},
      ): CustomAvatarRecord => ({
        id: `avatar-${pad(n)}`,
        userId,
        name: `Avatar ${n}`,
        description: 'Subido',
        tags: ['fantasy', 'mine'],
        originalName: `avatar ${n}.glb`,
        originalSize: 1000 * n,
        createdAt: at(n),
        startedAt: at(n),
        estimatedMs: 5000,
        status: 'pending',
        step: 'queued',
        progress: 0,
        uploadFile: `avatar-${pad(n)}.upload.glb`,
        modelFile: null,
        processedSize: null,
        compressionRatio: null,
        rigMetadata: null,
        animationConfig: null,
        compatibility: null,
        error: null,
        completedAt: null,
        ...overrides,
      });
      const completed = {
        status: 'completed',
        step: 'stored',
        progress: 100,
        uploadFile: null,
        modelFile: 'avatar-0001.glb',
        processedSize: 400,
        compressionRatio: 0.4,
        rigMetadata: {
          rigType: 'mixamo',
          skinned: true,
          basePose: 'T',
          boneMap: { Hips: 'mixamorig:Hips' },
          missingCoreBones: [],
          boneCount: 52,
          morphTargets: ['viseme_aa'],
          visemes: ['viseme_aa'],
          vertexCount: 1200,
          textures: 1,
        },
        animationConfig: {
          lipSync: 'jaw',
          blink: false,
          expressions: false,
          gestures: true,
          fingers: true,
          armsDownFromPose: 'T',
        },
        compatibility: {
          score: 60,
          capabilities: [{ id: 'skeleton', coverage: 1, works: true }],
          works: ['skeleton'],
          missing: ['visemes'],
          warnings: [],
        },
        completedAt: at(50),
      } satisfies Partial<CustomAvatarProgress>;

      beforeEach(async () => {
        await storage.users.create(newUser(1));
        await storage.users.create(newUser(2));
      });

      it('stores an avatar and reads it back, owner-scoped (AU-4)', async () => {
        await storage.customAvatars.insert(avatar('user-0001', 1));
        expect(await storage.customAvatars.find('user-0001', 'avatar-0001')).toStrictEqual(
          avatar('user-0001', 1),
        );
        expect(await storage.customAvatars.find('user-0002', 'avatar-0001')).toBeNull();
        expect(await storage.customAvatars.listForUser('user-0002')).toEqual([]);
      });

      it('updates progress and results, only in the statuses asked for', async () => {
        await storage.customAvatars.insert(avatar('user-0001', 1));
        const processing = await storage.customAvatars.update('user-0001', 'avatar-0001', {
          status: 'processing',
          step: 'validating',
          progress: 20,
        });
        expect(processing).toMatchObject({ status: 'processing', progress: 20, step: 'validating' });
        // Another user's update, or one whose condition fails, changes nothing.
        expect(await storage.customAvatars.update('user-0002', 'avatar-0001', { progress: 99 })).toBeNull();
        expect(
          await storage.customAvatars.update('user-0001', 'avatar-0001', { status: 'cancelled' }, [
            'pending',
          ]),
        ).toBeNull();
        const done = await storage.customAvatars.update('user-0001', 'avatar-0001', completed, [
          'processing',
        ]);
        expect(done).toStrictEqual(avatar('user-0001', 1, completed));
        expect(await storage.customAvatars.find('user-0001', 'avatar-0001')).toStrictEqual(done);
        const failed = await storage.customAvatars.update('user-0001', 'avatar-0001', {
          error: { code: 'timeout', detail: 'over 300000 ms' },
        });
        expect(failed?.error).toEqual({ code: 'timeout', detail: 'over 300000 ms' });
      });

      it('counts slots, bytes and processing jobs for the plan checks; lists unfinished jobs', async () => {
        await storage.customAvatars.insert(avatar('user-0001', 1, completed));
        await storage.customAvatars.insert(avatar('user-0001', 2, { status: 'processing', progress: 40 }));
        await storage.customAvatars.insert(avatar('user-0001', 3, { status: 'failed', uploadFile: null }));
        await storage.customAvatars.insert(avatar('user-0001', 4, { status: 'cancelled', uploadFile: null }));
        await storage.customAvatars.insert(avatar('user-0002', 5));
        expect(await storage.customAvatars.usage('user-0001')).toEqual({
          count: 2,
          bytes: 400 + 2000,
          processing: 1,
        });
        expect(await storage.customAvatars.usage('user-0002')).toEqual({
          count: 1,
          bytes: 5000,
          processing: 1,
        });
        expect(await storage.customAvatars.usage('user-unknown')).toEqual({
          count: 0,
          bytes: 0,
          processing: 0,
        });
        const unfinished = await storage.customAvatars.listUnfinished();
        expect(unfinished.map((a) => a.id)).toEqual(['avatar-0002', 'avatar-0005']);
        expect(unfinished.map((a) => a.status)).toEqual(['processing', 'pending']);
        expect(await storage.customAvatars.countPending()).toBe(1); // avatar-0005 alone
        expect((await storage.customAvatars.listForUser('user-0001')).map((a) => a.id)).toEqual([
          'avatar-0001',
          'avatar-0002',
          'avatar-0003',
          'avatar-0004',
        ]);
      });

      it("deletes only the owner's avatar", async () => {
        await storage.customAvatars.insert(avatar('user-0001', 1));
        expect(await storage.customAvatars.delete('user-0002', 'avatar-0001')).toBe(false);
        expect(await storage.customAvatars.delete('user-0001', 'avatar-0001')).toBe(true);
        expect(await storage.customAvatars.delete('user-0001', 'avatar-0001')).toBe(false);
        expect(await storage.customAvatars.usage('user-0001')).toEqual({ count: 0, bytes: 0, processing: 0 });
      });
    });

    describe('known devices (SPEC.md A-8)', () => {
      it('remembers the last sign-in under a key until it expires, and a later one replaces it', async () => {
        const devices = storage.knownDevices;
        expect(await devices.lastSignIn('device-a', 1_000)).toBeNull();
        await devices.recordSignIn('device-a', 1_000, 61_000);
        expect(await devices.lastSignIn('device-a', 2_000)).toBe(1_000);
        expect(await devices.lastSignIn('device-b', 2_000)).toBeNull();
        await devices.recordSignIn('device-a', 5_000, 65_000);
        expect(await devices.lastSignIn('device-a', 6_000)).toBe(5_000);
        // Past its expiry a device is forgotten, and a later write elsewhere leaves it forgotten.
        expect(await devices.lastSignIn('device-a', 65_000)).toBeNull();
        await devices.recordSignIn('device-b', 70_000, 130_000);
        expect(await devices.lastSignIn('device-a', 70_000)).toBeNull();
        expect(await devices.lastSignIn('device-b', 70_000)).toBe(70_000);
      });
    });

    describe('the store', () => {
      it('readTogether runs its reads and answers what they return; one that throws leaves the store working (issue 14)', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        const reads = storage.readTogether(() => ({
          user: storage.users.findById(userId),
          session: storage.sessions.find(userId, sessionId),
          missing: storage.users.findById('user-none'),
        }));
        expect((await reads.user)?.id).toBe(userId);
        expect((await reads.session)?.sessionId).toBe(sessionId);
        expect(await reads.missing).toBeNull();
        expect(() =>
          storage.readTogether(() => {
            void storage.users.findById(userId);
            throw new Error('a read went wrong');
          }),
        ).toThrow('a read went wrong');
        await storage.users.update(userId, { name: 'Después' });
        expect((await storage.users.findById(userId))?.name).toBe('Después');
      });

      it('answers ping while open, and not after close', async () => {
        expect(await storage.ping()).toBe(true);
        await storage.close();
        expect(await storage.ping()).toBe(false);
      });

      it('returns plain objects only: no driver fields at any depth', async () => {
        const { userId, sessionId } = await givenUserWithSession(1);
        await storage.refreshTokens.insert(newToken(userId, 'a'));
        const stored = await storage.messages.insert(
          newMessage(userId, sessionId, 1, {
            clientMessageId: 'c-1',
            emotionAnalysis: { emotion: 'calm', intensity: 0.2, confidence: 0.9 },
          }),
        );
        await storage.messages.insert(newMessage(userId, sessionId, 2, { replyTo: stored.message._id }));

        await storage.identities.link(newIdentity(userId, '123'));
        const accounts = [
          await storage.users.findById(userId),
          await storage.users.findByEmail('user1@example.com'),
          await storage.users.update(userId, { name: 'x' }),
          await storage.users.getPreferences(userId),
          await storage.users.updatePreferences(userId, { voice: 'v' }),
          await storage.refreshTokens.findByHash('hash-of-a'),
          await storage.identities.find('google', '123'),
          await storage.identities.listForUser(userId),
          await storage.usage.tryCountMessage(userId, '2025-01', 5),
          await storage.usage.tryCountMessage(userId, '2025-01', null),
          await storage.usage.addVoiceSeconds(userId, '2025-01', 1),
          await storage.usage.get(userId, '2025-01'),
        ];
        const sessions = [
          await storage.sessions.find(userId, sessionId),
          await storage.sessions.list(userId),
          await storage.sessions.update(userId, sessionId, { title: 'x' }),
          await storage.sessions.state(userId, sessionId),
        ];
        const messages = [
          await storage.messages.insert(newMessage(userId, sessionId, 3, { clientMessageId: 'c-1' })),
          await storage.messages.findByClientMessageId(userId, 'c-1'),
          await storage.messages.findReplyTo(userId, stored.message._id),
          await storage.messages.page(userId, sessionId, 1, 50),
          await storage.messages.recentTurns(userId, sessionId, 50),
          await storage.messages.all(userId, sessionId),
        ];
        const everything = [...accounts, ...sessions, ...messages];

        expect(everything.every((value) => value !== null)).toBe(true);
        expect(JSON.stringify(everything)).not.toContain('_metadata');
        expect(keysDeep(everything).has('_metadata')).toBe(false);
        // Only messages have an `_id`; sessions and messages leave their owner implied by the query.
        expect(keysDeep([...accounts, ...sessions]).has('_id')).toBe(false);
        expect(keysDeep([...sessions, ...messages]).has('userId')).toBe(false);
      });
    });
  });
}

/** A user row as the first schema stored it (upgrade tests). */
const OLD_USER_ROW = `INSERT INTO users (id, name, email, password_hash, bio, language, theme, email_notifications,
    push_notifications, plan, role, avatar, stripe_customer_id, created_at)
  VALUES ('user-0001', 'Old', 'old@example.com', 'hash', '', 'es', 'dark', 1, 1, 'free', 'user',
    NULL, NULL, '2024-01-01T00:00:00.000Z')`;

describe('embedded (SQLite through libsql)', () => {
  let directory: string;
  let files = 0;
  const nextFile = () => join(directory, `store-${++files}.db`);

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'alma-storage-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  describeStorageContract('embedded', async () => openEmbeddedStorage({ file: nextFile() }));

  it("a send is all or nothing: a session gone or a row that cannot be stored takes the month's count back", async () => {
    const storage = openEmbeddedStorage({ file: ':memory:' });
    const { id: userId } = await storage.users.create(newUser(1));
    const session = newSession(userId, 1);
    await storage.sessions.create(session);
    const message = newMessage(userId, session.sessionId, 10);
    const write = (overrides: Partial<SendWrite>): SendWrite => ({
      message,
      reply: newMessage(userId, session.sessionId, 11, { role: 'assistant', replyTo: message._id }),
      count: { period: '2025-01', limit: null },
      ...overrides,
    });
    // The reply's row collides with the message's id: the message, the touch and the count go too.
    await expect(
      storage.sends.store(write({ reply: { ...write({}).reply, _id: message._id } })),
    ).rejects.toThrow();
    const gone = newMessage(userId, 'session-gone', 10);
    expect(await storage.sends.store(write({ message: gone }))).toStrictEqual({ kind: 'no-session' });
    expect(await storage.messages.countByUser(userId)).toBe(0);
    expect((await storage.sessions.find(userId, session.sessionId))?.updatedAt).toBe(session.updatedAt);
    expect((await storage.usage.get(userId, '2025-01')).messages).toBe(0);
    await storage.close();
  });

  it('readTogether reads one snapshot: a commit by another connection between its reads is not seen (issue 14)', async () => {
    const file = nextFile();
    // On the main connection; through the reader thread: reader.test.ts.
    const storage = openEmbeddedStorage({ file, readThread: false });
    const { id: userId } = await storage.users.create(newUser(1, { name: 'Antes' }));
    // Another instance on the same file, writing while the reads are under way.
    const other = new Database(file);
    try {
      const rename = other.prepare('UPDATE users SET name = ? WHERE id = ?');
      const reads = storage.readTogether(() => {
        const first = storage.users.findById(userId);
        rename.run('Después', userId);
        return { first, second: storage.users.findById(userId) };
      });
      expect((await reads.first)?.name).toBe('Antes');
      expect((await reads.second)?.name).toBe('Antes');
      // Read on its own, the commit is seen.
      expect((await storage.users.findById(userId))?.name).toBe('Después');
    } finally {
      other.close();
      await storage.close();
    }
  });

  it('also runs in memory', async () => {
    const storage = openEmbeddedStorage({ file: ':memory:' });
    await storage.users.create(newUser(1));
    expect(await storage.users.findById('user-0001')).not.toBeNull();
    await storage.close();
  });

  it('keeps its data across close and reopen of the same file', async () => {
    const file = nextFile();
    const first = openEmbeddedStorage({ file });
    await first.users.create(newUser(1));
    await first.sessions.create(newSession('user-0001', 1));
    await first.messages.insert(newMessage('user-0001', 'session-0001', 1, { clientMessageId: 'c-1' }));
    await first.close();

    const second = openEmbeddedStorage({ file });
    expect(await second.users.findByEmail('user1@example.com')).not.toBeNull();
    expect((await second.sessions.find('user-0001', 'session-0001'))?.messageCount).toBe(1);
    expect(
      (await second.messages.insert(newMessage('user-0001', 'session-0001', 2, { clientMessageId: 'c-1' })))
        .duplicate,
    ).toBe(true);
    await second.close();
  });

  it('keeps every acknowledged write when its process is killed (kill -9)', async () => {
    const file = nextFile();
    const count = 25;
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./embedded/kill-writer.fixture.ts', import.meta.url)),
        file,
        String(count),
      ],
      // tsx resolves from the repository, whatever directory the tests run from.
      { cwd: fileURLToPath(new URL('.', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const acknowledged: string[] = [];
    await new Promise<void>((resolve, reject) => {
      let buffered = '';
      writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'done') {
            writer.kill('SIGKILL');
            resolve();
          } else acknowledged.push(line);
        }
      });
      writer.on('exit', (code) => reject(new Error(`writer exited before it was killed (${code})`)));
    });
    await new Promise((resolve) => writer.once('close', resolve));

    expect(acknowledged).toHaveLength(count);
    const storage = openEmbeddedStorage({ file });
    const { items } = await storage.messages.page('user-0001', 'session-0001', 1, 100);
    expect(items.map((m) => m._id)).toEqual(acknowledged);
    await storage.close();
  });

  it('commits the writes of one turn of the event loop together, with one fsync (issue 14)', async () => {
    const file = nextFile();
    const storage = openEmbeddedStorage({ file });
    await storage.users.create(newUser(1));
    await storage.sessions.create(newSession('user-0001', 1));
    const wal = new Database(file);
    const framesInWal = () => (wal.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log;
    wal.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
    expect(framesInWal()).toBe(0);

    const writes = 50;
    await Promise.all(
      Array.from({ length: writes }, (_, i) =>
        storage.messages.insert(newMessage('user-0001', 'session-0001', i + 1)),
      ),
    );
    // A commit per write appends each write's pages again (table, indexes, the session's count):
    // hundreds of frames. Grouped, the pages are written once.
    expect(framesInWal()).toBeLessThan(writes / 2);
    expect((await storage.sessions.find('user-0001', 'session-0001'))?.messageCount).toBe(writes);
    wal.close();
    await storage.close();
  });

  it('a write that fails in a group rejects alone; the others of its group commit', async () => {
    const storage = openEmbeddedStorage({ file: nextFile() });
    await storage.users.create(newUser(1));
    const [duplicate, session, user] = await Promise.allSettled([
      storage.users.create(newUser(2, { email: 'user1@example.com' })),
      storage.sessions.create(newSession('user-0001', 1)),
      storage.users.create(newUser(3)),
    ]);
    expect(duplicate.status === 'rejected' && duplicate.reason instanceof DuplicateKeyError).toBe(true);
    expect(session.status).toBe('fulfilled');
    expect(user.status).toBe('fulfilled');
    expect(await storage.users.findById('user-0002')).toBeNull();
    expect(await storage.users.findById('user-0003')).not.toBeNull();
    expect(await storage.sessions.find('user-0001', 'session-0001')).not.toBeNull();
    await storage.close();
  });

  it('commits what is waiting when it closes', async () => {
    const file = nextFile();
    const storage = openEmbeddedStorage({ file });
    const created = storage.users.create(newUser(1));
    await storage.close();
    await created;
    const reopened = openEmbeddedStorage({ file });
    expect(await reopened.users.findById('user-0001')).not.toBeNull();
    await reopened.close();
  });

  it('applies each migration once, however often it is opened', async () => {
    const file = nextFile();
    for (let i = 0; i < 3; i++) await openEmbeddedStorage({ file }).close();

    const db = new Database(file);
    migrate(db);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as {
      version: number;
    }[];
    expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare('PRAGMA journal_mode').get()).toMatchObject({ journal_mode: 'wal' });
    db.close();
  });

  it('upgrades a database of an earlier version, keeping its users', async () => {
    const file = nextFile();
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare(
      `INSERT INTO users (id, name, email, password_hash, bio, language, theme, email_notifications,
         push_notifications, plan, role, avatar, stripe_customer_id, created_at)
       VALUES ('user-0001', 'Old', 'old@example.com', 'hash', '', 'es', 'dark', 1, 0, 'free', 'user',
         NULL, NULL, '2024-01-01T00:00:00.000Z')`,
    ).run();
    db.close();

    const storage = openEmbeddedStorage({ file });
    expect(await storage.users.findById('user-0001')).toMatchObject({
      email: 'old@example.com',
      pushNotifications: false,
      emailVerified: false,
    });
    expect(await storage.users.getPreferences('user-0001')).toStrictEqual(DEFAULT_PREFERENCES);
    expect((await storage.usage.tryCountMessage('user-0001', '2025-01', 1)).counted).toBe(true);
    await storage.close();
  });

  it("C-12 upgrades chat data of version 2: stored titles are the user's, no context yet", async () => {
    const file = nextFile();
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, 2));
    db.exec(`
      ${OLD_USER_ROW};
      INSERT INTO sessions (session_id, user_id, title, personality, created_at, updated_at) VALUES
        ('session-0001', 'user-0001', 'Mine', 'default', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'),
        ('session-0002', 'user-0001', NULL, 'default', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
      INSERT INTO messages (_id, session_id, user_id, role, content, created_at, is_complete)
        VALUES ('m-1', 'session-0001', 'user-0001', 'user', 'hola', '2024-01-01T00:00:01.000Z', 1);
    `);
    db.close();

    const storage = openEmbeddedStorage({ file });
    expect(await storage.sessions.state('user-0001', 'session-0001')).toMatchObject({
      titleSource: 'user',
      context: null,
      emotionScores: {},
      session: { title: 'Mine', dominantEmotion: null, messageCount: 1 },
    });
    expect((await storage.sessions.state('user-0001', 'session-0002'))?.titleSource).toBeNull();
    expect(await storage.messages.all('user-0001', 'session-0001')).toMatchObject([
      { _id: 'm-1', gesture: null, voiceId: null, avatarId: null },
    ]);
    await storage.close();
  });

  it('lists sessions with the count kept on their row, counting no messages per row (issue 14)', async () => {
    const file = nextFile();
    const storage = openEmbeddedStorage({ file });
    await storage.users.create(newUser(1));
    await storage.sessions.create(newSession('user-0001', 1));
    await storage.messages.insert(newMessage('user-0001', 'session-0001', 1));
    const db = new Database(file);
    expect(db.prepare('SELECT message_count AS n FROM sessions').get()).toMatchObject({ n: 1 });
    // A count the list computed would still say 1: it says what the row says.
    db.prepare('UPDATE sessions SET message_count = 7').run();
    db.close();
    expect((await storage.sessions.list('user-0001')).map((s) => s.messageCount)).toEqual([7]);
    await storage.close();
  });

  it('keeps a read session list while nothing it shows changes, and reads again after any change, from any connection (issue 14)', async () => {
    const file = nextFile();
    const storage = openEmbeddedStorage({ file });
    // Another instance on the same file (REDIS_URL scale-out), writing through its own connection.
    const other = openEmbeddedStorage({ file });
    await storage.users.create(newUser(1));
    await storage.users.create(newUser(2));
    await storage.sessions.create(newSession('user-0001', 1, { updatedAt: at(1) }));
    await storage.sessions.create(newSession('user-0001', 2, { updatedAt: at(2) }));
    const list = () => storage.sessions.list('user-0001');
    const summary = async () => (await list()).map((s) => [s.sessionId, s.title, s.messageCount]);

    const first = await list();
    // Kept: the same list, shared by every caller, so frozen.
    expect(await list()).toBe(first);
    expect(Object.isFrozen(first) && first.every((s) => Object.isFrozen(s))).toBe(true);
    // Another user's writes and a session's fields the list does not show leave it as read.
    await other.sessions.create(newSession('user-0002', 3));
    await other.sessions.update('user-0001', 'session-0001', {
      context: { summary: 'x', topics: [], names: [], keyPoints: [], userName: null, exchanges: 1 },
    });
    expect(await list()).toBe(first);

    // Each change another connection makes shows at once: a message counted, a rename, a new
    // session, a deletion, the order after an update.
    await other.messages.insert(newMessage('user-0001', 'session-0001', 1));
    expect(await summary()).toEqual([
      ['session-0002', 'Session 2', 0],
      ['session-0001', 'Session 1', 1],
    ]);
    await other.sessions.update('user-0001', 'session-0002', { title: 'Renamed' });
    await other.sessions.create(newSession('user-0001', 4, { updatedAt: at(0) }));
    expect(await summary()).toEqual([
      ['session-0002', 'Renamed', 0],
      ['session-0001', 'Session 1', 1],
      ['session-0004', 'Session 4', 0],
    ]);
    await other.sessions.update('user-0001', 'session-0004', { updatedAt: at(9) });
    expect(await other.sessions.delete('user-0001', 'session-0002')).toBe(true);
    expect(await summary()).toEqual([
      ['session-0004', 'Session 4', 0],
      ['session-0001', 'Session 1', 1],
    ]);
    // So does a write made behind the repositories' back.
    const db = new Database(file);
    db.prepare("UPDATE sessions SET dominant_emotion = 'happy' WHERE session_id = 'session-0001'").run();
    db.close();
    expect((await list()).map((s) => s.dominantEmotion)).toEqual([null, 'happy']);
    await other.close();
    await storage.close();
  });

  it('upgrades sessions of version 6 with their message counts', async () => {
    const file = nextFile();
    const db = new Database(file);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 6),
    );
    db.exec(`
      ${OLD_USER_ROW};
      INSERT INTO sessions (session_id, user_id, title, personality, created_at, updated_at) VALUES
        ('session-0001', 'user-0001', 'A', 'default', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'),
        ('session-0002', 'user-0001', 'B', 'default', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
      INSERT INTO messages (_id, session_id, user_id, role, content, created_at, is_complete) VALUES
        ('m-1', 'session-0001', 'user-0001', 'user', 'hola', '2024-01-01T00:00:01.000Z', 1),
        ('m-2', 'session-0001', 'user-0001', 'assistant', 'hola', '2024-01-01T00:00:02.000Z', 1);
    `);
    db.close();

    const storage = openEmbeddedStorage({ file });
    const counts = (await storage.sessions.list('user-0001')).map((s) => [s.sessionId, s.messageCount]);
    expect(counts).toEqual([
      ['session-0002', 0],
      ['session-0001', 2],
    ]);
    await storage.close();
  });

  it('refuses a database migrated by a newer release', async () => {
    const file = nextFile();
    await openEmbeddedStorage({ file }).close();
    const db = new Database(file);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 'x')",
    ).run();
    db.close();
    expect(() => openEmbeddedStorage({ file })).toThrow(/newer than this server knows/);
  });

  it('openStorage picks it without MONGODB_URI and creates DATA_DIR', async () => {
    const dataDir = join(directory, 'data-dir', 'nested');
    const storage = await openStorage({ dataDir });
    expect(storage.kind).toBe('embedded');
    expect(await storage.ping()).toBe(true);
    await storage.close();
  });
});

const mongoUri = process.env['MONGODB_URI'];
if (!mongoUri) console.info('MongoDB contract suite skipped: set MONGODB_URI to run it');

describe.skipIf(!mongoUri)('mongodb (needs MONGODB_URI)', () => {
  // Each test gets its own database, dropped at the end, so runs never see each other's data.
  const databases: string[] = [];
  afterAll(async () => {
    if (!mongoUri) return;
    const client = await MongoClient.connect(mongoUri);
    for (const name of databases) await client.db(name).dropDatabase();
    await client.close();
  });

  describeStorageContract('mongodb', async () => {
    if (!mongoUri) throw new Error('MONGODB_URI is not set');
    const dbName = `alma_contract_${process.pid}_${databases.length + 1}`;
    databases.push(dbName);
    return openMongoStorage({ uri: mongoUri, dbName });
  });
});
