import type { PlanLimits } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';

/**
 * The plan's avatar slots and concurrent uploads (spec §5; SPEC.md AU-1, AU-9), held from the
 * moment a request is let in. Stored avatars count through `stored()`; uploads still arriving and
 * compatibility checks in flight are claims held here, so two requests at once can't both take the
 * last slot: each user's check-and-claim runs one at a time.
 */

export interface StoredUsage {
  /** Avatars holding a slot. */
  count: number;
  /** Avatar jobs pending or processing, plus voice uploads in flight. */
  processing: number;
}

export function createUploadSlots(stored: (userId: string) => Promise<StoredUsage>) {
  const claims = new Map<string, { uploads: number; checks: number }>();
  const locks = new Map<string, Promise<unknown>>();
  const of = (userId: string) => claims.get(userId) ?? { uploads: 0, checks: 0 };

  /** Runs `fn` after any check-and-claim of the same user still running. */
  function serialised<T>(userId: string, fn: () => Promise<T>): Promise<T> {
    const run = (locks.get(userId) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(userId, tail);
    void tail.then(() => locks.get(userId) === tail && locks.delete(userId));
    return run;
  }

  /**
   * Claims a processing slot (and, for an upload, an avatar slot) or throws the plan's refusal.
   * The returned release is idempotent; call it once the claim is stored or given up.
   */
  function claim(userId: string, limits: PlanLimits, kind: 'upload' | 'check'): Promise<() => void> {
    return serialised(userId, async () => {
      const used = await stored(userId);
      const held = of(userId);
      if (kind === 'upload' && used.count + held.uploads >= limits.maxCustomAvatars)
        throw new AppError('avatar_limit_reached', { detail: `${used.count}/${limits.maxCustomAvatars}` });
      const busy = used.processing + held.uploads + held.checks;
      if (busy >= limits.maxConcurrentUploads)
        throw new AppError('upload_concurrency_limit', { detail: `${busy}/${limits.maxConcurrentUploads}` });
      const key = kind === 'upload' ? 'uploads' : 'checks';
      claims.set(userId, { ...held, [key]: held[key] + 1 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const now = of(userId);
        const left = { ...now, [key]: now[key] - 1 };
        if (left.uploads + left.checks === 0) claims.delete(userId);
        else claims.set(userId, left);
      };
    });
  }

  return {
    claim,
    /** Slots held by requests in flight (uploads arriving, checks running). */
    inFlight: (userId: string): number => of(userId).uploads + of(userId).checks,
  };
}
