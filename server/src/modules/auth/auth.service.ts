import { hash, verify, type Options } from '@node-rs/argon2';
import type { AuthSession, Language, User } from '@alma/protocol';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import {
  DuplicateKeyError,
  type RefreshTokenRecord,
  type RefreshTokenRepository,
  type UserRecord,
  type UserRepository,
} from '../../storage/types.ts';
import type { LoginGuard } from './login-guard.ts';
import type { AccessRevocation } from './revocation.ts';

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
  revocation: AccessRevocation;
  signAccessToken: (claims: { sub: string; role: User['role']; sid: string; tv: number }) => string;
  refreshTokenTtlDays: number;
  /** Keys the successor of each refresh token (see `successorOf`). */
  refreshSecret: string;
  /** How long a just-rotated refresh token still answers with its successor (SPEC.md A-3). */
  refreshGraceMs: number;
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
  const { users, refreshTokens, revocation, clock } = deps;
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

  /**
   * The token that replaces a refresh token on rotation: keyed from the old token's hash, so a
   * second presentation within the grace window gets the very same successor without it ever
   * being stored, and nobody without the secret can compute it.
   */
  const successorOf = (tokenHash: string) =>
    createHmac('sha256', deps.refreshSecret).update(`refresh-successor:${tokenHash}`).digest('base64url');

  const storeToken = (tokenHash: string, userId: string, familyId: string) => {
    const now = clock();
    return refreshTokens.insert({
      tokenHash,
      userId,
      familyId,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.refreshTokenTtlDays * 86_400_000).toISOString(),
      revokedAt: null,
      replacedBy: null,
    });
  };

  /** The answer for a stored refresh token: it and a new access token of its family. */
  async function sessionFor(user: UserRecord, familyId: string, refreshToken: string): Promise<AuthSession> {
    const tv = await revocation.tokenVersion(user.id);
    if (tv === null) throw new AppError('unauthorized');
    return {
      success: true,
      token: deps.signAccessToken({ sub: user.id, role: user.role, sid: familyId, tv }),
      refreshToken,
      user: toPublicUser(user),
    };
  }

  /** A new sign-in: a new refresh-token family (one device's session). */
  async function issueSession(user: UserRecord): Promise<AuthSession> {
    const refreshToken = randomBytes(32).toString('base64url');
    const familyId = deps.newId();
    await storeToken(sha256(refreshToken), user.id, familyId);
    return sessionFor(user, familyId, refreshToken);
  }

  /**
   * Rotates a live token: the successor is stored first, then the old token is marked, so the
   * family always holds a live token. Null when a concurrent refresh stored the successor first
   * (the grace path answers with it); throws when the token was revoked meanwhile.
   */
  async function rotate(record: RefreshTokenRecord, user: UserRecord): Promise<AuthSession | null> {
    const next = successorOf(record.tokenHash);
    try {
      await storeToken(sha256(next), user.id, record.familyId);
    } catch (error) {
      if (error instanceof DuplicateKeyError) return null;
      throw error;
    }
    const at = clock().toISOString();
    if (!(await refreshTokens.markRotated(record.tokenHash, sha256(next), at))) {
      // Revoked between the read and now (a logout): the successor must not outlive it.
      await refreshTokens.revokeFamily(record.familyId, at);
      throw new AppError('refresh_invalid', { detail: 'refresh token revoked during rotation' });
    }
    return sessionFor(user, record.familyId, next);
  }

  /**
   * SPEC.md A-3's grace window: a token rotated less than `refreshGraceMs` ago (another tab, a
   * retried request) answers with its successor — followed along a short chain if that one was
   * rotated just as recently — as long as the successor is live. Null otherwise: a reuse.
   */
  async function graceSuccessor(record: RefreshTokenRecord, user: UserRecord): Promise<AuthSession | null> {
    const now = clock().getTime();
    let current: RefreshTokenRecord | null = record;
    for (let hops = 0; current && hops < 4; hops++) {
      const next = successorOf(current.tokenHash);
      const nextHash = sha256(next);
      // Revoked without a successor (logout, theft), or rotated too long ago. A token still
      // unmarked is mid-rotation by a concurrent request: rotated just now.
      if (current.revokedAt !== null && current.replacedBy !== nextHash) return null;
      const rotatedAt = current.revokedAt === null ? now : new Date(current.revokedAt).getTime();
      if (now - rotatedAt >= deps.refreshGraceMs) return null;
      const successor = await refreshTokens.findByHash(nextHash);
      if (successor?.revokedAt === null) return sessionFor(user, successor.familyId, next);
      current = successor;
    }
    return null;
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
      await deps.loginGuard?.check(email, address);
      const user = await users.findByEmail(email);
      const valid = await verifyPassword(user?.passwordHash || (await dummyHash), password);
      if (!user || !valid) {
        await deps.loginGuard?.recordFailure(email, address);
        throw new AppError('invalid_credentials');
      }
      await deps.loginGuard?.recordSuccess(email, address);
      return issueSession(await withConfiguredRole(user));
    },

    async me(userId: string): Promise<User> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('unauthorized');
      return toPublicUser(user);
    },

    /**
     * Rotation (SPEC.md A-3): each refresh token works once. Within the grace window a rotated
     * token answers with the same successor (two tabs, concurrent requests); after it, or for a
     * revoked token, the presentation is treated as theft and the whole family is revoked.
     */
    async refresh(refreshToken: string): Promise<AuthSession> {
      const record = await refreshTokens.findByHash(sha256(refreshToken));
      if (!record || new Date(record.expiresAt) <= clock()) throw new AppError('refresh_invalid');
      const user = await users.findById(record.userId);
      if (!user) throw new AppError('refresh_invalid');
      const session =
        (record.revokedAt === null ? await rotate(record, user) : null) ??
        (await graceSuccessor(record, user));
      if (session) return session;
      await revocation.revokeFamily(record.userId, record.familyId, 'session_revoked');
      throw new AppError('refresh_invalid', { detail: 'refresh token reused: family revoked' });
    },

    /** SPEC.md: this sign-in ends (every one without a refresh token), sockets included. */
    async logout(userId: string, refreshToken: string | undefined): Promise<void> {
      const record = refreshToken ? await refreshTokens.findByHash(sha256(refreshToken)) : null;
      if (record && record.userId === userId)
        await revocation.revokeFamily(userId, record.familyId, 'signed_out');
      else await revocation.revokeUser(userId, 'signed_out');
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
