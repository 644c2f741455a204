import { describe, expect, it, vi } from 'vitest';
import { LIMITS_CACHE_MS, PLAN_TABLE, type SubscriptionLimits } from '@alma/protocol';
import { createLimitsCache, defaultFreeLimits } from './limits.ts';

function proLimits(): SubscriptionLimits {
  return { ...defaultFreeLimits(), plan: 'pro', limits: { ...PLAN_TABLE.pro.limits } };
}

function setup(fetch: () => Promise<SubscriptionLimits>) {
  let now = 1_000_000;
  const fetchMock = vi.fn(fetch);
  const cache = createLimitsCache({
    fetch: fetchMock,
    now: () => now,
    errorText: () => 'Error loading limits',
  });
  return { cache, fetchMock, advance: (ms: number) => (now += ms) };
}

describe('subscription limits (spec §7 Uploads, §9)', () => {
  it('are cached for 5 minutes per user', async () => {
    const { cache, fetchMock, advance } = setup(() => Promise.resolve(proLimits()));
    expect((await cache.get('u1')).subscription.plan).toBe('pro');
    advance(LIMITS_CACHE_MS - 1);
    await cache.get('u1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    advance(1);
    await cache.get('u1');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('another user, a forced refresh or an invalidation asks again; parallel looks share one call', async () => {
    const { cache, fetchMock } = setup(() => Promise.resolve(proLimits()));
    await Promise.all([cache.get('u1'), cache.get('u1')]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await cache.get('u2');
    await cache.get('u2', { force: true });
    cache.invalidate();
    await cache.get('u2');
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it('fall back to the default free limits with "Error loading limits", and do not cache the failure', async () => {
    let fail = true;
    const { cache, fetchMock } = setup(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve(proLimits()),
    );
    const result = await cache.get('u1');
    expect(result.error).toBe('Error loading limits');
    expect(result.subscription.plan).toBe('free');
    expect(result.subscription.limits).toMatchObject({
      maxCustomAvatars: 2,
      maxCustomVoices: 2,
      maxAvatarFileSize: 52_428_800,
      maxVoiceFileSize: 10_485_760,
      maxTotalStorage: 104_857_600,
      maxConcurrentUploads: 1,
      maxProcessingTime: 300_000,
      features: ['basic_chat', 'text_to_speech', 'custom_avatars', 'custom_voices'],
    });
    expect(result.subscription.formatted).toMatchObject({
      maxTotalStorage: '100 MB',
      avatarSlotsUsed: '0/2',
    });
    fail = false;
    expect((await cache.get('u1')).error).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
