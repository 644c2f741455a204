import { LIMITS_CACHE_MS, PLAN_TABLE, routes, type SubscriptionLimits } from '@alma/protocol';
import { call } from './api.ts';
import { i18n } from './i18n.ts';

/**
 * Subscription limits (spec §7 Uploads: GET /api/upload/subscription-limits), cached 5 minutes
 * per user; on failure the default free limits of spec §9 with "Error loading limits".
 */
export interface LimitsResult {
  subscription: SubscriptionLimits;
  /** Set when the server could not be asked and the defaults are shown instead. */
  error: string | null;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** The free plan's limits with nothing used: what the client assumes when it cannot ask. */
export function defaultFreeLimits(): SubscriptionLimits {
  const limits = PLAN_TABLE.free.limits;
  return {
    plan: 'free',
    limits: { ...limits, features: [...limits.features] },
    usage: {
      customAvatars: 0,
      customVoices: 0,
      totalStorageBytes: 0,
      avatarStorageBytes: 0,
      voiceStorageBytes: 0,
      currentProcessingUploads: 0,
      messagesThisMonth: 0,
      voiceMinutesThisMonth: 0,
    },
    formatted: {
      totalStorage: formatBytes(0),
      maxTotalStorage: formatBytes(limits.maxTotalStorage),
      avatarStorage: formatBytes(0),
      voiceStorage: formatBytes(0),
      storagePercentage: '0%',
      avatarSlotsUsed: `0/${limits.maxCustomAvatars}`,
      voiceSlotsUsed: `0/${limits.maxCustomVoices}`,
      processingSlots: `0/${limits.maxConcurrentUploads}`,
      maxAvatarFileSize: formatBytes(limits.maxAvatarFileSize),
      maxVoiceFileSize: formatBytes(limits.maxVoiceFileSize),
    },
    warnings: [],
    canUploadAvatar: true,
    canUploadVoice: true,
  };
}

export interface LimitsCacheDeps {
  fetch: () => Promise<SubscriptionLimits>;
  now: () => number;
  errorText: () => string;
}

export function createLimitsCache(deps: LimitsCacheDeps) {
  let cached: { userId: string; at: number; subscription: SubscriptionLimits } | null = null;
  let pending: { userId: string; promise: Promise<LimitsResult> } | null = null;

  async function load(userId: string): Promise<LimitsResult> {
    try {
      const subscription = await deps.fetch();
      cached = { userId, at: deps.now(), subscription };
      return { subscription, error: null };
    } catch {
      // Failures are not cached: the next look asks again.
      return { subscription: defaultFreeLimits(), error: deps.errorText() };
    } finally {
      pending = null;
    }
  }

  return {
    get(userId: string, options: { force?: boolean } = {}): Promise<LimitsResult> {
      if (!options.force && cached?.userId === userId && deps.now() - cached.at < LIMITS_CACHE_MS) {
        return Promise.resolve({ subscription: cached.subscription, error: null });
      }
      if (pending?.userId === userId) return pending.promise;
      const promise = load(userId);
      pending = { userId, promise };
      return promise;
    },
    /** After something that changes them (an upload, a usage reset). */
    invalidate(): void {
      cached = null;
    },
  };
}

export const subscriptionLimits = createLimitsCache({
  fetch: async () => (await call(routes.account.subscriptionLimits, {})).subscription,
  now: () => Date.now(),
  errorText: () => i18n.t('errors.limitsLoad'),
});
