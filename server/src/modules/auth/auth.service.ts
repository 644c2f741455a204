import { hash, verify, type Options } from '@node-rs/argon2';
import type { AuthSession, Language, User } from '@alma/protocol';
import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import {
  DuplicateKeyError,
  type RefreshTokenRepository,
  type UserRecord,
  type UserRepository,
} from '../../storage/types.ts';
import type { LoginGuard } from './login-guard.ts';

/** OWASP's argon2id minimum (19 MiB, 2 passes): ~30 ms here, slow enough to hurt guessing. */
// `algorithm: 2` is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const ARGON2: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);
/** False for a wrong password and for an account without one (empty hash). */
export const verifyPassword = (passwordHash: string, password: string): Promise<boolean> =>
  verify(passwordHash, password).catch(() => false);

export interface AuthServiceDeps {
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  signAccessToken: (claims: { sub: string; role: User['role'] }) => string;
  refreshTokenTtlDays: number;
  newId: IdGenerator;
  clock: Clock;
  /** Brute-force protection of login (SPEC.md A-8); none when absent. */
  loginGuard?: LoginGuard;
  /** Lower-cased emails that get the admin role at registration and sign-in (SPEC.md A-10). */
  adminEmails?: readonly string[];
  /** Called after an account is created (sends the verification email); must not throw. */
  onRegistered?: (user: UserRecord) => void;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  plan: User['plan'];
  language: Language;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function toPublicUser(record: UserRecord): User {
  const { passwordHash: _omit, ...user } = record;
  return user;
}

export function createAuthService(deps: AuthServiceDeps) {
  const { users, refreshTokens, clock } = deps;
  // Verified against when an email is unknown, so both failures cost the same time.
  const dummyHash = hash('not-a-real-password', ARGON2);
  const admins = new Set(deps.adminEmails ?? []);
  const roleFor = (email: string): User['role'] => (admins.has(email.toLowerCase()) ? 'admin' : 'user');

  /** The role follows ADMIN_EMAILS at every sign-in: added emails are promoted, removed demoted. */
  async function withConfiguredRole(user: UserRecord): Promise<UserRecord> {
    const role = roleFor(user.email);
    if (user.role === role) return user;
    return (await users.update(user.id, { role })) ?? { ...user, role };
  }

  async function issueSession(user: UserRecord, familyId: string = deps.newId()): Promise<AuthSession> {
    const refreshToken = randomBytes(32).toString('base64url');
    const now = clock();
    await refreshTokens.insert({
      tokenHash: sha256(refreshToken),
      userId: user.id,
      familyId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.refreshTokenTtlDays * 86_400_000).toISOString(),
      revokedAt: null,
      replacedBy: null,
    });
    return {
      success: true,
      token: deps.signAccessToken({ sub: user.id, role: user.role }),
      refreshToken,
      user: toPublicUser(user),
    };
  }

  return {
    /** Tokens for a user whose identity was proven another way (outside provider, reset link). */
    startSession: async (user: UserRecord) => issueSession(await withConfiguredRole(user)),

    async register(input: RegisterInput): Promise<AuthSession> {
      const passwordHash = await hash(input.password, ARGON2);
      let user: UserRecord;
      try {
        user = await users.create({
          id: deps.newId(),
          name: input.name,
          email: input.email,
          passwordHash,
          plan: input.plan,
          role: roleFor(input.email),
          language: input.language,
          theme: 'dark',
          createdAt: clock().toISOString(),
        });
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw new AppError('email_taken');
        throw error;
      }
      deps.onRegistered?.(user);
      return issueSession(user);
    },

    /** `address` is the caller's IP, counted by the login guard (SPEC.md A-8). */
    async login(email: string, password: string, address = 'unknown'): Promise<AuthSession> {
      deps.loginGuard?.check(email, address);
      const user = await users.findByEmail(email);
      const valid = await verifyPassword(user?.passwordHash || (await dummyHash), password);
      if (!user || !valid) {
        deps.loginGuard?.recordFailure(email, address);
        throw new AppError('invalid_credentials');
      }
      deps.loginGuard?.recordSuccess(email);
      return issueSession(await withConfiguredRole(user));
    },

    async me(userId: string): Promise<User> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('unauthorized');
      return toPublicUser(user);
    },

    /**
     * Rotation (SPEC.md A-3): each refresh token works once. Presenting one that was already
     * rotated or revoked is treated as theft: its whole family is revoked.
     */
    async refresh(refreshToken: string): Promise<AuthSession> {
      const tokenHash = sha256(refreshToken);
      const record = await refreshTokens.findByHash(tokenHash);
      const now = clock();
      if (!record) throw new AppError('refresh_invalid');
      if (record.revokedAt !== null) {
        await refreshTokens.revokeFamily(record.familyId, now.toISOString());
        throw new AppError('refresh_invalid', { detail: 'refresh token reused: family revoked' });
      }
      if (new Date(record.expiresAt) <= now) throw new AppError('refresh_invalid');
      const user = await users.findById(record.userId);
      if (!user) throw new AppError('refresh_invalid');
      const session = await issueSession(user, record.familyId);
      const won = await refreshTokens.markRotated(tokenHash, sha256(session.refreshToken), now.toISOString());
      if (!won) {
        // A concurrent refresh with the same token won the race: same as a reuse.
        await refreshTokens.revokeFamily(record.familyId, now.toISOString());
        throw new AppError('refresh_invalid', { detail: 'concurrent refresh: family revoked' });
      }
      return session;
    },

    async logout(userId: string, refreshToken: string | undefined): Promise<void> {
      const at = clock().toISOString();
      const record = refreshToken ? await refreshTokens.findByHash(sha256(refreshToken)) : null;
      if (record && record.userId === userId) await refreshTokens.revokeFamily(record.familyId, at);
      else await refreshTokens.revokeAllForUser(userId, at);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
