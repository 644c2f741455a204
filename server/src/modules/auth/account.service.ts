import type { AuthSession, User } from '@alma/protocol';
import { createHash, randomBytes } from 'node:crypto';
import { resetPasswordEmail, verifyEmailEmail } from '../../email/templates.ts';
import type { Mailer, MailMessage } from '../../email/mailer.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type {
  OneTimeTokenRecord,
  OneTimeTokenRepository,
  UserPatch,
  UserRecord,
  UserRepository,
} from '../../storage/types.ts';
import { hashPassword, toPublicUser, verifyPassword, type AuthService } from './auth.service.ts';
import type { LoginGuard } from './login-guard.ts';
import type { AccessRevocation } from './revocation.ts';

export interface AccountServiceDeps {
  users: UserRepository;
  revocation: Pick<AccessRevocation, 'revokeUser'>;
  oneTimeTokens: OneTimeTokenRepository;
  auth: Pick<AuthService, 'startSession'>;
  mailer: Mailer;
  /** Public base of emailed links, no trailing slash. */
  appUrl: string;
  resetTokenTtlMin: number;
  verifyTokenTtlH: number;
  loginGuard?: LoginGuard;
  clock: Clock;
  log: Log;
}

export type DetailsPatch = Pick<
  UserPatch,
  'name' | 'bio' | 'language' | 'theme' | 'emailNotifications' | 'pushNotifications'
>;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The account beyond signing in: profile details, password change, recovery and verification
 * links (SPEC.md ). Emailed tokens are 32 random bytes (base64url); only their
 * sha256 is stored, and the repository consumes each one atomically, once.
 */
export function createAccountService(deps: AccountServiceDeps) {
  const { users, revocation, oneTimeTokens, clock, log } = deps;
  /** Emails in flight: sent after the answer, so no route waits for (or reveals) the SMTP server. */
  const pending = new Set<Promise<void>>();

  function inBackground(work: () => Promise<void>, context: object): void {
    const running: Promise<void> = work()
      .catch((error: unknown) => log.error({ err: error, ...context }, 'email could not be sent'))
      .finally(() => pending.delete(running));
    pending.add(running);
  }
  const send = (message: MailMessage) => deps.mailer.send(message);

  async function newLink(userId: string, kind: OneTimeTokenRecord['kind'], ttlMs: number): Promise<string> {
    const now = clock();
    // A newer link replaces the older ones of its kind.
    await oneTimeTokens.revokeForUser(userId, kind, now.toISOString());
    const token = randomBytes(32).toString('base64url');
    await oneTimeTokens.insert({
      tokenHash: sha256(token),
      userId,
      kind,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      usedAt: null,
    });
    return token;
  }

  async function consume(token: string, kind: OneTimeTokenRecord['kind']): Promise<UserRecord> {
    const userId = await oneTimeTokens.consume(sha256(token), kind, clock().toISOString());
    const user = userId ? await users.findById(userId) : null;
    if (!user) throw new AppError('link_invalid', { detail: `${kind} link unknown, used or expired` });
    return user;
  }

  async function setPassword(user: UserRecord, password: string, extra: UserPatch = {}): Promise<UserRecord> {
    const passwordHash = await hashPassword(password);
    const updated = await users.update(user.id, { ...extra, passwordHash });
    if (!updated) throw new AppError('unauthorized');
    return updated;
  }

  return {
    /** Sends the verification link (after registration); never throws. */
    sendVerification(user: UserRecord): void {
      const ttlHours = deps.verifyTokenTtlH;
      inBackground(
        async () => {
          const token = await newLink(user.id, 'verify', ttlHours * 3_600_000);
          await send(
            verifyEmailEmail({
              to: user.email,
              name: user.name,
              language: user.language,
              link: `${deps.appUrl}/auth/verifyemail/${token}`,
              ttlHours,
            }),
          );
        },
        { userId: user.id, kind: 'verify' },
      );
    },

    /** Never changes the email (it is the sign-in identity; spec §2 shows it read-only). */
    async updateDetails(userId: string, patch: DetailsPatch): Promise<User> {
      const user = await users.update(userId, patch);
      if (!user) throw new AppError('unauthorized');
      // The dashboard's theme and the preferences' theme are one setting.
      if (patch.theme !== undefined) await users.updatePreferences(userId, { theme: patch.theme });
      return toPublicUser(user);
    },

    /**
     * SPEC.md A-6: checks the current password (failures count toward the login guard, A-8),
     * stores the new hash, ends every session of the user — other devices are signed out, their
     * access tokens refused and sockets closed — and only then issues the caller's new
     * session. The caller's own open sockets (`familyId`, its sign-in) stay connected.
     */
    async updatePassword(
      userId: string,
      input: { currentPassword: string; newPassword: string },
      address: string,
      familyId?: string,
    ): Promise<AuthSession> {
      const user = await users.findById(userId);
      if (!user) throw new AppError('unauthorized');
      await deps.loginGuard?.check(user.email, address);
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        await deps.loginGuard?.recordFailure(user.email, address);
        throw new AppError('invalid_credentials');
      }
      const updated = await setPassword(user, input.newPassword);
      await revocation.revokeUser(userId, 'password_changed', familyId ? { exceptFamilyId: familyId } : {});
      await oneTimeTokens.revokeForUser(userId, 'reset', clock().toISOString());
      return deps.auth.startSession(updated);
    },

    /** SPEC.md A-7: the caller learns nothing about whether the email has an account. */
    async forgotPassword(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user) return;
      const ttlMinutes = deps.resetTokenTtlMin;
      const token = await newLink(user.id, 'reset', ttlMinutes * 60_000);
      const message = resetPasswordEmail({
        to: user.email,
        name: user.name,
        language: user.language,
        link: `${deps.appUrl}/reset-password/${token}`,
        ttlMinutes,
      });
      inBackground(() => send(message), { userId: user.id, kind: 'reset' });
    },

    /**
     * SPEC.md A-9: the link works once, before it expires. The new password signs out every
     * device; opening the emailed link also proves the address.
     */
    async resetPassword(token: string, password: string): Promise<AuthSession> {
      const user = await consume(token, 'reset');
      const updated = await setPassword(user, password, { emailVerified: true });
      await revocation.revokeUser(user.id, 'password_changed');
      await oneTimeTokens.revokeForUser(user.id, 'reset', clock().toISOString());
      await deps.loginGuard?.recordSuccess(user.email);
      return deps.auth.startSession(updated);
    },

    async verifyEmail(token: string): Promise<void> {
      const user = await consume(token, 'verify');
      await users.update(user.id, { emailVerified: true });
    },

    /** Resolves when every email in flight has been handed over (tests, shutdown). */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
