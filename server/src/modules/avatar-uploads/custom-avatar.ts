import {
  AVATAR_FAILURE_MESSAGES,
  customAvatarModelUrl,
  customAvatarPortraitUrl,
  modelFindingMessage,
  type CustomAvatar,
  type Language,
  type UploadProgress,
} from '@alma/protocol';
import type { CustomAvatarRecord } from '../../storage/types.ts';

/** A stored avatar as the API answers it (spec §3 Custom avatar; SPEC.md AU-4, AU-7). */

export const uploadFileOf = (id: string): string => `${id}.upload.glb`;
export const modelFileOf = (id: string): string => `${id}.glb`;
export const portraitFileOf = (id: string): string => `${id}.portrait.webp`;

/** The failure in the reader's language: the code's message and each finding in plain words. */
export function failureOf(record: CustomAvatarRecord, language: Language): CustomAvatar['error'] {
  if (!record.error) return null;
  const details = (record.error.findings ?? []).map((f) => modelFindingMessage(language, f));
  return {
    code: record.error.code,
    message: AVATAR_FAILURE_MESSAGES[language][record.error.code],
    ...(details.length ? { details } : {}),
  };
}

export function toCustomAvatar(record: CustomAvatarRecord, language: Language): CustomAvatar {
  const completed = record.status === 'completed';
  const modelUrl = completed ? customAvatarModelUrl(record.id) : null;
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    category: 'custom',
    tags: record.tags,
    isPublic: false,
    status: record.status,
    step: record.step,
    progress: record.progress,
    startTime: record.startedAt,
    estimatedTime: Math.round(record.estimatedMs / 1000),
    isReady: completed,
    hasError: record.status === 'failed',
    error: failureOf(record, language),
    modelUrl,
    portraitUrl: completed ? customAvatarPortraitUrl(record.id) : null,
    modelPath: modelUrl,
    modelFilename: completed ? modelFileOf(record.id) : null,
    originalName: record.originalName,
    rigMetadata: record.rigMetadata,
    animationConfig: record.animationConfig,
    compatibility: record.compatibility,
    compatibilityScore: record.compatibility?.score ?? null,
    originalSize: record.originalSize,
    processedSize: record.processedSize,
    compressionRatio: record.compressionRatio,
    isCustom: true,
    isProcessed: completed,
    processing: { status: completed ? 'completed' : 'processing' },
    createdAt: record.createdAt,
    completedAt: record.completedAt,
  };
}

/** The `upload:progress` push for a record (AU-4). */
export function progressOf(record: CustomAvatarRecord, language: Language): UploadProgress {
  const error = failureOf(record, language);
  return {
    kind: 'avatar',
    id: record.id,
    status: record.status,
    progress: record.progress,
    step: record.step,
    ...(error
      ? { error: { message: error.message, ...(error.details ? { details: error.details } : {}) } }
      : {}),
  };
}
