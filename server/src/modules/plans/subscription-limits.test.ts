import { PLAN_TABLE } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { buildSubscriptionLimits, formatBytes, NO_UPLOADS, type UploadUsage } from './subscription-limits.ts';

const MB = 1024 * 1024;
const free = (uploads: Partial<UploadUsage>, language: 'es' | 'en' = 'es') =>
  buildSubscriptionLimits({
    plan: 'free',
    limits: PLAN_TABLE.free.limits,
    uploads: { ...NO_UPLOADS, ...uploads },
    messagesThisMonth: 0,
    voiceMinutesThisMonth: 0,
    language,
  });

describe('formatBytes', () => {
  it('uses binary units with at most one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10_485_760)).toBe('10 MB');
    expect(formatBytes(52_428_800)).toBe('50 MB');
    expect(formatBytes(104_857_600)).toBe('100 MB');
    expect(formatBytes(2048 * MB)).toBe('2 GB');
  });
});

describe('subscription limits (spec §3, §5 plan checks)', () => {
  it('splits storage into avatars and voices and formats every figure', () => {
    const s = free({ customAvatars: 1, avatarStorageBytes: 30 * MB, voiceStorageBytes: 5 * MB });
    expect(s.usage).toMatchObject({ totalStorageBytes: 35 * MB, avatarStorageBytes: 30 * MB });
    expect(s.formatted).toMatchObject({
      totalStorage: '35 MB',
      avatarStorage: '30 MB',
      voiceStorage: '5 MB',
      storagePercentage: '35%',
      avatarSlotsUsed: '1/2',
    });
    expect(s.warnings).toEqual([]);
    expect(s.canUploadAvatar).toBe(true);
  });

  it('warns above 80 % of storage, not at 80 % exactly', () => {
    expect(free({ avatarStorageBytes: 80 * MB }).warnings).toEqual([]);
    expect(free({ avatarStorageBytes: 85 * MB }).warnings).toEqual([
      'Has usado el 85% de tu almacenamiento (85 MB de 100 MB).',
    ]);
    expect(free({ avatarStorageBytes: 85 * MB }, 'en').warnings).toEqual([
      'You have used 85% of your storage (85 MB of 100 MB).',
    ]);
  });

  it('warns when custom slots reach 80 % of the maximum, and says when they are full', () => {
    expect(free({ customAvatars: 1, customVoices: 1 }).warnings).toEqual([]);
    const full = free({ customAvatars: 2, customVoices: 2 });
    expect(full.warnings).toEqual([
      'Has alcanzado el máximo de avatares personalizados de tu plan (2/2).',
      'Has alcanzado el máximo de voces personalizadas de tu plan (2/2).',
    ]);
    const pro = buildSubscriptionLimits({
      plan: 'pro',
      limits: PLAN_TABLE.pro.limits,
      uploads: { ...NO_UPLOADS, customAvatars: 8, customVoices: 7 },
      messagesThisMonth: 0,
      voiceMinutesThisMonth: 0,
      language: 'es',
    });
    expect(pro.warnings).toEqual(['Estás cerca del máximo de avatares personalizados de tu plan (8/10).']);
    expect(pro.canUploadAvatar).toBe(true);
  });

  it('allows an upload only with the feature, a free slot, storage left and a free processing slot', () => {
    expect(free({})).toMatchObject({ canUploadAvatar: true, canUploadVoice: true });
    expect(free({ customAvatars: 2 })).toMatchObject({ canUploadAvatar: false, canUploadVoice: true });
    expect(free({ customVoices: 2 })).toMatchObject({ canUploadAvatar: true, canUploadVoice: false });
    expect(free({ voiceStorageBytes: 100 * MB })).toMatchObject({
      canUploadAvatar: false,
      canUploadVoice: false,
    });
    expect(free({ currentProcessingUploads: 1 })).toMatchObject({
      canUploadAvatar: false,
      canUploadVoice: false,
    });
    const withoutFeatures = buildSubscriptionLimits({
      plan: 'free',
      limits: { ...PLAN_TABLE.free.limits, features: ['basic_chat', 'text_to_speech'] },
      uploads: NO_UPLOADS,
      messagesThisMonth: 0,
      voiceMinutesThisMonth: 0,
      language: 'es',
    });
    expect(withoutFeatures).toMatchObject({ canUploadAvatar: false, canUploadVoice: false });
  });
});
