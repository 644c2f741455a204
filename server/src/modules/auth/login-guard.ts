import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/ids.ts';

export interface LoginGuardOptions {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowMs: number;
  clock: Clock;
}

/** Keys kept at most; beyond it the oldest are dropped (a flood of made-up emails stays bounded). */
const MAX_KEYS = 100_000;

/**
 * Login brute-force protection (SPEC.md A-8): failed password checks are counted per account
 * (the email) and per address in a sliding window. While either has reached its maximum, login
 * answers 429 `rate_limited` with `retryAfterMs` — the time until the oldest counted failure
 * leaves the window — without checking the password. A success clears the account's count.
 *
 * In memory, per process: several instances behind a balancer each count on their own, and a
 * restart forgets. Unknown emails are counted like known ones, so a lockout reveals nothing.
 */
export function createLoginGuard(options: LoginGuardOptions) {
  /** key → times (ms) of the failures still inside the window, oldest first. */
  const failures = new Map<string, number[]>();
  const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
  const addressKey = (address: string) => `address:${address}`;

  const recent = (key: string, now: number): number[] => {
    const times = failures.get(key);
    if (!times) return [];
    const kept = times.filter((t) => t > now - options.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };

  const waitFor = (key: string, max: number, now: number): number => {
    const times = recent(key, now);
    if (times.length < max) return 0;
    // The window frees a slot when the oldest of the last `max` failures leaves it.
    const oldest = times[times.length - max] ?? now;
    return Math.max(1, oldest + options.windowMs - now);
  };

  const add = (key: string, max: number, now: number) => {
    const times = recent(key, now);
    times.push(now);
    failures.delete(key); // re-insert: the Map's order is then least recently failed first
    failures.set(key, times.slice(-max));
    if (failures.size > MAX_KEYS) {
      for (const old of failures.keys()) {
        failures.delete(old);
        if (failures.size <= MAX_KEYS) break;
      }
    }
  };

  return {
    /** Throws `rate_limited` (with retryAfterMs) while the account or the address is locked. */
    check(email: string, address: string): void {
      const now = options.clock().getTime();
      const retryAfterMs = Math.max(
        waitFor(accountKey(email), options.maxFailuresPerAccount, now),
        waitFor(addressKey(address), options.maxFailuresPerAddress, now),
      );
      if (retryAfterMs > 0) {
        throw new AppError('rate_limited', { retryAfterMs, detail: 'login locked: too many failures' });
      }
    },
    recordFailure(email: string, address: string): void {
      const now = options.clock().getTime();
      add(accountKey(email), options.maxFailuresPerAccount, now);
      add(addressKey(address), options.maxFailuresPerAddress, now);
    },
    recordSuccess(email: string): void {
      failures.delete(accountKey(email));
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;
