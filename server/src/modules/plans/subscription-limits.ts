import {
  NEAR_LIMIT_RATIO,
  type Language,
  type Plan,
  type PlanLimits,
  type SubscriptionLimits,
} from '@alma/protocol';

/**
 * What a user has uploaded, as the plan checks of spec §5 count it. The upload issues provide
 * the real figures; until custom avatars and voices exist nobody has uploaded anything, so
 * `NO_UPLOADS` is the truth, not a placeholder.
 */
export interface UploadUsage {
  customAvatars: number;
  customVoices: number;
  avatarStorageBytes: number;
  voiceStorageBytes: number;
  currentProcessingUploads: number;
}

export const NO_UPLOADS: UploadUsage = {
  customAvatars: 0,
  customVoices: 0,
  avatarStorageBytes: 0,
  voiceStorageBytes: 0,
  currentProcessingUploads: 0,
};

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Binary units, at most one decimal: 104857600 → "100 MB", 1536 → "1.5 KB", 0 → "0 B". */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${UNITS[unit]}`;
}

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/** Warning texts (spec §5; the spec's limit messages are Spanish, English is our translation). */
const WARNINGS = {
  es: {
    storage: (pct: string, used: string, max: string) =>
      `Has usado el ${pct} de tu almacenamiento (${used} de ${max}).`,
    avatarsFull: (slots: string) =>
      `Has alcanzado el máximo de avatares personalizados de tu plan (${slots}).`,
    avatarsNear: (slots: string) =>
      `Estás cerca del máximo de avatares personalizados de tu plan (${slots}).`,
    voicesFull: (slots: string) => `Has alcanzado el máximo de voces personalizadas de tu plan (${slots}).`,
    voicesNear: (slots: string) => `Estás cerca del máximo de voces personalizadas de tu plan (${slots}).`,
  },
  en: {
    storage: (pct: string, used: string, max: string) =>
      `You have used ${pct} of your storage (${used} of ${max}).`,
    avatarsFull: (slots: string) => `You have reached your plan's maximum of custom avatars (${slots}).`,
    avatarsNear: (slots: string) => `You are close to your plan's maximum of custom avatars (${slots}).`,
    voicesFull: (slots: string) => `You have reached your plan's maximum of custom voices (${slots}).`,
    voicesNear: (slots: string) => `You are close to your plan's maximum of custom voices (${slots}).`,
  },
} satisfies Record<Language, Record<string, (...args: string[]) => string>>;

export interface SubscriptionLimitsInput {
  plan: Plan;
  limits: PlanLimits;
  uploads: UploadUsage;
  messagesThisMonth: number;
  voiceMinutesThisMonth: number;
  language: Language;
}

/**
 * The subscription-limits answer (spec §3) and the plan checks of spec §5 that need no file:
 * the feature is included, a slot is free, storage is not full, and a processing slot is free.
 * Warnings: storage above 80 % of the maximum, custom slots at 80 % of the maximum or more.
 */
export function buildSubscriptionLimits(input: SubscriptionLimitsInput): SubscriptionLimits {
  const { limits, uploads } = input;
  const text = WARNINGS[input.language];
  const totalStorageBytes = uploads.avatarStorageBytes + uploads.voiceStorageBytes;
  const storageRatio = limits.maxTotalStorage > 0 ? totalStorageBytes / limits.maxTotalStorage : 1;
  const avatarSlots = `${uploads.customAvatars}/${limits.maxCustomAvatars}`;
  const voiceSlots = `${uploads.customVoices}/${limits.maxCustomVoices}`;

  const warnings: string[] = [];
  if (storageRatio > NEAR_LIMIT_RATIO) {
    warnings.push(
      text.storage(
        percent(storageRatio),
        formatBytes(totalStorageBytes),
        formatBytes(limits.maxTotalStorage),
      ),
    );
  }
  const slotWarning = (used: number, max: number, full: string, near: string) => {
    if (max <= 0 || used < max * NEAR_LIMIT_RATIO) return;
    warnings.push(used >= max ? full : near);
  };
  slotWarning(
    uploads.customAvatars,
    limits.maxCustomAvatars,
    text.avatarsFull(avatarSlots),
    text.avatarsNear(avatarSlots),
  );
  slotWarning(
    uploads.customVoices,
    limits.maxCustomVoices,
    text.voicesFull(voiceSlots),
    text.voicesNear(voiceSlots),
  );

  const storageFree = totalStorageBytes < limits.maxTotalStorage;
  const processingFree = uploads.currentProcessingUploads < limits.maxConcurrentUploads;
  return {
    plan: input.plan,
    limits: { ...limits, features: [...limits.features] },
    usage: {
      customAvatars: uploads.customAvatars,
      customVoices: uploads.customVoices,
      totalStorageBytes,
      avatarStorageBytes: uploads.avatarStorageBytes,
      voiceStorageBytes: uploads.voiceStorageBytes,
      currentProcessingUploads: uploads.currentProcessingUploads,
      messagesThisMonth: input.messagesThisMonth,
      voiceMinutesThisMonth: input.voiceMinutesThisMonth,
    },
    formatted: {
      totalStorage: formatBytes(totalStorageBytes),
      maxTotalStorage: formatBytes(limits.maxTotalStorage),
      avatarStorage: formatBytes(uploads.avatarStorageBytes),
      voiceStorage: formatBytes(uploads.voiceStorageBytes),
      storagePercentage: percent(storageRatio),
      avatarSlotsUsed: avatarSlots,
      voiceSlotsUsed: voiceSlots,
      processingSlots: `${uploads.currentProcessingUploads}/${limits.maxConcurrentUploads}`,
      maxAvatarFileSize: formatBytes(limits.maxAvatarFileSize),
      maxVoiceFileSize: formatBytes(limits.maxVoiceFileSize),
    },
    warnings,
    canUploadAvatar:
      limits.features.includes('custom_avatars') &&
      uploads.customAvatars < limits.maxCustomAvatars &&
      storageFree &&
      processingFree,
    canUploadVoice:
      limits.features.includes('custom_voices') &&
      uploads.customVoices < limits.maxCustomVoices &&
      storageFree &&
      processingFree,
  };
}
