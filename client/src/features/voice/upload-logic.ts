import {
  VOICE_UPLOAD_MAX_BYTES,
  hasVoiceExtension,
  type ErrorCode,
  type SubscriptionLimits,
} from '@alma/protocol';

/**
 * The upload panel's checks before a voice file leaves the browser (spec §5 Files and "Plan checks
 * before upload"; SPEC.md VU-2, VU-5). Each problem is a protocol error code, so the text shown is
 * the spec's (`errors.<code>`), the same the server would answer. Validators return every problem;
 * the first is shown. The server checks again, by content.
 */
export type VoiceUploadProblem = Extract<
  ErrorCode,
  | 'voice_format_invalid'
  | 'voice_file_too_large'
  | 'upload_feature_not_included'
  | 'voice_limit_reached'
  | 'upload_storage_full'
  | 'upload_concurrency_limit'
>;

export function validateVoiceFile(
  file: { name: string; size: number },
  limits?: SubscriptionLimits | null,
): VoiceUploadProblem[] {
  const problems: VoiceUploadProblem[] = [];
  if (!hasVoiceExtension(file.name)) problems.push('voice_format_invalid');
  if (file.size > VOICE_UPLOAD_MAX_BYTES) problems.push('voice_file_too_large');
  if (!limits) return problems;
  const { limits: max, usage } = limits;
  if (!max.features.includes('custom_voices')) problems.push('upload_feature_not_included');
  if (usage.customVoices >= max.maxCustomVoices) problems.push('voice_limit_reached');
  if (file.size > max.maxVoiceFileSize && !problems.includes('voice_file_too_large'))
    problems.push('voice_file_too_large');
  if (usage.totalStorageBytes + file.size > max.maxTotalStorage) problems.push('upload_storage_full');
  if (usage.currentProcessingUploads >= max.maxConcurrentUploads) problems.push('upload_concurrency_limit');
  return problems;
}
