import { z } from 'zod';
import { PlanSchema } from './entities.ts';
import type { Plan } from './constants.ts';

/**
 * The plan table (spec §3, §9). Monthly message and voice-minute caps are not given by the spec;
 * the values here are our choice (protocol/SPEC.md L-1). `null` means unlimited.
 */
export const FEATURES = [
  'basic_chat',
  'text_to_speech',
  'custom_avatars',
  'custom_voices',
  'priority_processing',
  'advanced_personalities',
] as const;
export type Feature = (typeof FEATURES)[number];

/** What a plan allows (spec §3, §9); `null` caps are unlimited. */
export const PlanLimitsSchema = z.object({
  maxCustomAvatars: z.number().int(),
  maxCustomVoices: z.number().int(),
  maxAvatarFileSize: z.number().int(),
  maxVoiceFileSize: z.number().int(),
  maxTotalStorage: z.number().int(),
  maxConcurrentUploads: z.number().int(),
  maxProcessingTime: z.number().int(),
  /** null: unlimited (spec: "may be infinite"; JSON has no Infinity). */
  messages: z.number().int().nullable(),
  voiceMinutes: z.number().nullable(),
  features: z.array(z.enum(FEATURES)),
});
export type PlanLimits = z.infer<typeof PlanLimitsSchema>;

const MB = 1024 * 1024;

export const PLAN_TABLE: Record<
  Plan,
  {
    key: Plan;
    landingName: string;
    name: string;
    priceMonthly: number;
    priceYearly: number;
    limits: PlanLimits;
  }
> = {
  free: {
    key: 'free',
    landingName: 'Free',
    name: 'Free',
    priceMonthly: 0,
    priceYearly: 0,
    limits: {
      maxCustomAvatars: 2,
      maxCustomVoices: 2,
      maxAvatarFileSize: 52_428_800,
      maxVoiceFileSize: 10_485_760,
      maxTotalStorage: 104_857_600,
      maxConcurrentUploads: 1,
      maxProcessingTime: 300_000,
      messages: 500,
      voiceMinutes: 30,
      features: ['basic_chat', 'text_to_speech', 'custom_avatars', 'custom_voices'],
    },
  },
  pro: {
    key: 'pro',
    landingName: 'Pro',
    name: 'Standard',
    priceMonthly: 9.99,
    priceYearly: 99.99,
    limits: {
      maxCustomAvatars: 10,
      maxCustomVoices: 10,
      maxAvatarFileSize: 52_428_800,
      maxVoiceFileSize: 10_485_760,
      maxTotalStorage: 500 * MB,
      maxConcurrentUploads: 3,
      maxProcessingTime: 300_000,
      messages: 5000,
      voiceMinutes: 300,
      features: ['basic_chat', 'text_to_speech', 'custom_avatars', 'custom_voices', 'priority_processing'],
    },
  },
  enterprise: {
    key: 'enterprise',
    landingName: 'Enterprise',
    name: 'Advanced',
    priceMonthly: 29.99,
    priceYearly: 299.99,
    limits: {
      maxCustomAvatars: 50,
      maxCustomVoices: 50,
      maxAvatarFileSize: 52_428_800,
      maxVoiceFileSize: 10_485_760,
      maxTotalStorage: 2048 * MB,
      maxConcurrentUploads: 5,
      maxProcessingTime: 300_000,
      messages: null,
      voiceMinutes: null,
      features: [...FEATURES],
    },
  },
};

/** The yearly badge (spec §9). */
export const YEARLY_DISCOUNT_LABEL = '-17%';
export const FREE_TRIAL_DAYS = 7;
/** Usage bars (spec §2 Usage, §9). */
export const USAGE_WARNING_RATIO = 0.7;
export const USAGE_DANGER_RATIO = 0.9;
/** Storage and slot warnings (spec §5). */
export const NEAR_LIMIT_RATIO = 0.8;
/** The client caches subscription limits this long (spec §9). */
export const LIMITS_CACHE_MS = 5 * 60 * 1000;

export const UsageSchema = z.object({
  messagesThisMonth: z.number().int().nonnegative(),
  voiceMinutesThisMonth: z.number().nonnegative(),
  /** The month counted, `YYYY-MM` in UTC (SPEC.md L-2), and when it resets. */
  period: z.string(),
  resetsAt: z.string(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const UsageSummarySchema = z.object({
  plan: PlanSchema,
  usage: UsageSchema,
  limits: z.object({ messages: z.number().int().nullable(), voiceMinutes: z.number().nullable() }),
  /** "500" or "∞": what the usage bars show as the cap. */
  messagesLimitLabel: z.string(),
});
export type UsageSummary = z.infer<typeof UsageSummarySchema>;

export const SubscriptionLimitsSchema = z.object({
  plan: PlanSchema,
  limits: PlanLimitsSchema,
  usage: z.object({
    customAvatars: z.number().int().nonnegative(),
    customVoices: z.number().int().nonnegative(),
    totalStorageBytes: z.number().int().nonnegative(),
    avatarStorageBytes: z.number().int().nonnegative(),
    voiceStorageBytes: z.number().int().nonnegative(),
    currentProcessingUploads: z.number().int().nonnegative(),
    messagesThisMonth: z.number().int().nonnegative(),
    voiceMinutesThisMonth: z.number().nonnegative(),
  }),
  formatted: z.object({
    totalStorage: z.string(),
    maxTotalStorage: z.string(),
    avatarStorage: z.string(),
    voiceStorage: z.string(),
    storagePercentage: z.string(),
    avatarSlotsUsed: z.string(),
    voiceSlotsUsed: z.string(),
    processingSlots: z.string(),
    maxAvatarFileSize: z.string(),
    maxVoiceFileSize: z.string(),
  }),
  warnings: z.array(z.string()),
  canUploadAvatar: z.boolean(),
  canUploadVoice: z.boolean(),
});
export type SubscriptionLimits = z.infer<typeof SubscriptionLimitsSchema>;

export const SubscriptionSchema = z.object({
  plan: PlanSchema,
  isActive: z.boolean(),
  isCanceled: z.boolean(),
  currentPeriodEnd: z.string().nullable(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
