import { createHash } from 'node:crypto';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/ids.ts';
import type { KnownDeviceRepository } from '../../storage/types.ts';
import { createMemoryLoginAttempts, type LoginAttemptStore } from './login-attempts.ts';

export interface LoginGuardOptions {
  /** Failures of one account from one address before that pair is locked. */
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowMs: number;
  clock: Clock;
  /** Where the counts live; this process's memory unless given (Redis with REDIS_URL). */
  store?: LoginAttemptStore;
  /** The first spacing of the account-wide slowdown; it doubles with each further failure. */
  slowdownBaseMs?: number;
  /** The longest spacing of the slowdown. */
  slowdownMaxMs?: number;
  /** How long a sign-in makes its address a known device of the account. */
  knownDeviceMs?: number;
  /**
   * Where known devices are remembered: the database in the app, so a restart in the middle of
   * an attack forgets strangers' failures but never the owner's devices. Without it, the store.
   */
  knownDevices?: KnownDeviceRepository;
  /** Told when the store fails; the attempt then goes ahead unguarded (as the rate limits do). */
  onStoreError?: (error: unknown) => void;
}

const DAY_MS = 86_400_000;

/**
 * Login brute-force protection (SPEC.md A-8). Failed password checks are counted in a sliding
 * window per (account, address) pair, per address and per account:
 * - a pair or an address at its maximum is locked: 429 `rate_limited` with `retryAfterMs` — the
 *   time until the oldest counted failure leaves the window — without checking the password;
 * - an account is never locked for every address (strangers could lock its owner out). Past the
 *   pair maximum from all addresses together it is slowed: attempts from addresses that are not
 *   a known device of the account take turns, spaced by a delay that doubles with each further
 *   failure (an early one gets 429 with the wait); a known device — an address the account
 *   signed in from recently — is never slowed by strangers' failures.
 * Unknown emails are counted like known ones, so a lockout reveals nothing.
 */
export function createLoginGuard(options: LoginGuardOptions) {
  const { clock, windowMs, maxFailuresPerAccount: maxPair, maxFailuresPerAddress: maxAddress } = options;
  const store = options.store ?? createMemoryLoginAttempts();
  const baseMs = options.slowdownBaseMs ?? 1000;
  const maxMs = options.slowdownMaxMs ?? 60_000;
  const knownMs = options.knownDeviceMs ?? 30 * DAY_MS;
  /** Enough account failures to reach the longest spacing; older ones add nothing. */
  const keepForAccount = maxPair + Math.ceil(Math.log2(maxMs / baseMs)) + 1;

  const account = (email: string) => email.trim().toLowerCase();
  const pairKey = (email: string, address: string) => `pair:${account(email)}\n${address}`;
  const addressKey = (address: string) => `address:${address}`;
  const accountKey = (email: string) => `account:${account(email)}`;
  const knownKey = (email: string, address: string) => `known:${account(email)}\n${address}`;
  const turnKey = (email: string) => `turn:${account(email)}`;

  /** How long until fewer than `max` failures of `key` are in the window (0: not locked). */
  const lockedFor = async (key: string, max: number, now: number): Promise<number> => {
    const times = await store.failures(key, now - windowMs);
    if (times.length < max) return 0;
    const oldest = times[times.length - max] ?? now;
    return Math.max(1, oldest + windowMs - now);
  };

  /** The spacing the account's attempts must keep while it is under attack; 0 when it is not. */
  const spacing = async (email: string, now: number): Promise<number> => {
    const excess = (await store.failures(accountKey(email), now - windowMs)).length - maxPair;
    return excess < 0 ? 0 : Math.min(maxMs, baseMs * 2 ** excess);
  };

  // The database holds a digest of the key, not the email and address themselves.
  const devices = options.knownDevices;
  const deviceKey = (email: string, address: string) =>
    createHash('sha256').update(knownKey(email, address)).digest('base64url');
  const isKnown = async (email: string, address: string, now: number): Promise<boolean> => {
    const at = devices
      ? await devices.lastSignIn(deviceKey(email, address), now)
      : await store.getMark(knownKey(email, address));
    return at !== null && now - at < knownMs;
  };

  /** A store failure lets the attempt through (and is reported) rather than refusing everyone. */
  const guarded = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      options.onStoreError?.(error);
      return fallback;
    }
  };

  const waitBefore = async (email: string, address: string, now: number): Promise<number> => {
    const locked = Math.max(
      await lockedFor(pairKey(email, address), maxPair, now),
      await lockedFor(addressKey(address), maxAddress, now),
    );
    if (locked > 0) return locked;
    const step = await spacing(email, now);
    if (step === 0 || (await isKnown(email, address, now))) return 0;
    return store.takeTurn(turnKey(email), now, step);
  };

  return {
    /**
     * Throws `rate_limited` (with retryAfterMs) while the pair or the address is locked, or the
     * account is slowed and this address must wait its turn; otherwise the attempt may run.
     */
    async check(email: string, address: string): Promise<void> {
      const retryAfterMs = await guarded(() => waitBefore(email, address, clock().getTime()), 0);
      if (retryAfterMs > 0) {
        throw new AppError('rate_limited', { retryAfterMs, detail: 'login locked: too many failures' });
      }
    },

    async recordFailure(email: string, address: string): Promise<void> {
      const now = clock().getTime();
      await guarded(async () => {
        await Promise.all([
          store.addFailure(pairKey(email, address), now, maxPair, windowMs),
          store.addFailure(addressKey(address), now, maxAddress, windowMs),
          store.addFailure(accountKey(email), now, keepForAccount, windowMs),
        ]);
      }, undefined);
    },

    /**
     * A sign-in from `address` clears that pair and makes the address a known device of the
     * account. Without an address (a password reset: the owner proved the mailbox) the
     * account's slowdown ends.
     */
    async recordSuccess(email: string, address?: string): Promise<void> {
      const now = clock().getTime();
      await guarded(async () => {
        if (address === undefined) return void (await store.clearFailures(accountKey(email)));
        await store.clearFailures(pairKey(email, address));
        if (devices) await devices.recordSignIn(deviceKey(email, address), now, now + knownMs);
        else await store.setMark(knownKey(email, address), now, knownMs);
      }, undefined);
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
