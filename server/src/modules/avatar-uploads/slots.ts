import type { PlanLimits } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import { createMemoryUploadSlots, type UploadSlots } from '../voice-uploads/upload-slots.ts';

/**
 * The plan's avatar slots and concurrent uploads (spec §5; SPEC.md AU-1, AU-9), held from the
 * moment a request is let in. Stored avatars count through `stored()`; uploads still arriving and
 * compatibility checks in flight are claims held in two slot sets — in this process, or in Redis so
 * every instance counts the same claims (SPEC.md M-6) — so two requests at once can't both take
 * the last slot: each set's check-and-take is one step, and a user's claims here run one at a time.
 */

export interface StoredUsage {
  /** Avatars holding a slot. */
  count: number;
  /** Avatar jobs pending or processing, plus voice uploads in flight. */
  processing: number;
}

export interface AvatarSlotSets {
  /** Uploads arriving, counted against the plan's avatars. */
  avatars: UploadSlots;
  /** Uploads arriving and checks running, counted against the plan's concurrent uploads. */
  processing: UploadSlots;
}

export const createMemoryAvatarSlotSets = (): AvatarSlotSets => ({
  avatars: createMemoryUploadSlots(),
  processing: createMemoryUploadSlots(),
});

export function createUploadSlots(
  stored: (userId: string) => Promise<StoredUsage>,
  sets: AvatarSlotSets = createMemoryAvatarSlotSets(),
) {
  const locks = new Map<string, Promise<unknown>>();

  /** Runs `fn` after any check-and-claim of the same user still running here. */
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
      const releases: (() => Promise<void>)[] = [];
      const releaseAll = () => {
        for (const release of releases.splice(0)) void release();
      };
      if (kind === 'upload') {
        const avatar = await sets.avatars.take(userId, limits.maxCustomAvatars, used.count);
        if (!avatar.ok)
          throw new AppError('avatar_limit_reached', { detail: `${avatar.busy}/${limits.maxCustomAvatars}` });
        releases.push(avatar.release);
      }
      const busy = await sets.processing.take(userId, limits.maxConcurrentUploads, used.processing);
      if (!busy.ok) {
        releaseAll();
        throw new AppError('upload_concurrency_limit', {
          detail: `${busy.busy}/${limits.maxConcurrentUploads}`,
        });
      }
      releases.push(busy.release);
      return releaseAll;
    });
  }

  return {
    claim,
    /** Slots held by requests in flight (uploads arriving, checks running), on every instance. */
    inFlight: (userId: string): Promise<number> => sets.processing.held(userId),
    close: (): void => {
      sets.avatars.close();
      sets.processing.close();
    },
  };
}
