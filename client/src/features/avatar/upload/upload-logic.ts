import {
  AVATAR_UPLOAD_MAX_BYTES,
  hasGlbExtension,
  type ErrorCode,
  type SubscriptionLimits,
} from '@alma/protocol';

/**
 * The avatar upload panel's checks before a file leaves the browser (spec §5 Files and "Plan
 * checks before upload"; SPEC.md AU-1). Each problem is a protocol error code, so the text shown
 * is the spec's (`errors.<code>`), the same the server would answer. Every problem is returned;
 * the first is shown. The server checks again, by content.
 */
export type AvatarUploadProblem = Extract<
  ErrorCode,
  | 'avatar_format_invalid'
  | 'avatar_file_too_large'
  | 'upload_feature_not_included'
  | 'avatar_limit_reached'
  | 'upload_storage_full'
  | 'upload_concurrency_limit'
>;

export function validateAvatarFile(
  file: { name: string; size: number },
  limits?: SubscriptionLimits | null,
): AvatarUploadProblem[] {
  const problems: AvatarUploadProblem[] = [];
  if (!hasGlbExtension(file.name)) problems.push('avatar_format_invalid');
  if (file.size > AVATAR_UPLOAD_MAX_BYTES) problems.push('avatar_file_too_large');
  if (!limits) return problems;
  const { limits: max, usage } = limits;
  if (!max.features.includes('custom_avatars')) problems.push('upload_feature_not_included');
  if (usage.customAvatars >= max.maxCustomAvatars) problems.push('avatar_limit_reached');
  if (file.size > max.maxAvatarFileSize && !problems.includes('avatar_file_too_large'))
    problems.push('avatar_file_too_large');
  if (usage.totalStorageBytes + file.size > max.maxTotalStorage) problems.push('upload_storage_full');
  if (usage.currentProcessingUploads >= max.maxConcurrentUploads) problems.push('upload_concurrency_limit');
  return problems;
}

/** The processing steps the feedback panel lists, each done once progress passes its mark (spec §4). */
export const PROGRESS_MARKS = [
  { step: 'validating', at: 20 },
  { step: 'inspecting', at: 40 },
  { step: 'analysing', at: 60 },
  { step: 'optimising', at: 80 },
] as const;

export function marksPassed(progress: number): number {
  return PROGRESS_MARKS.filter((m) => progress >= m.at).length;
}

/** Spec §5: warn when slots used reach 80 % of the plan's maximum. */
export function slotsNearlyFull(limits: SubscriptionLimits): boolean {
  const { usage, limits: max } = limits;
  return max.maxCustomAvatars > 0 && usage.customAvatars / max.maxCustomAvatars >= 0.8;
}

/** Spec §5: warn when storage would exceed 80 % with a file of this size. */
export function storageNearlyFull(limits: SubscriptionLimits, fileSize = 0): boolean {
  const { usage, limits: max } = limits;
  return (usage.totalStorageBytes + fileSize) / max.maxTotalStorage > 0.8;
}
