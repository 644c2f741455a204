import { z } from 'zod';
import { defineRoute } from './define-route.ts';

/**
 * Custom avatars (spec §3 Custom avatar, §4 Custom avatar upload, §5 Files and plan checks, §7
 * Uploads; SPEC.md AU-1…): a user uploads a .glb; the server checks its header and the plan,
 * records it as pending and answers at once; a worker thread validates, inspects, scores and
 * optimises it, pushing `upload:progress` at every step.
 */

/** Spec §5 / §9: an avatar file is at most 50 MB (the plan's `maxAvatarFileSize` may say less). */
export const AVATAR_UPLOAD_MAX_BYTES = 52_428_800;
export const AVATAR_UPLOAD_ACCEPT = '.glb,model/gltf-binary';
/** Spec §5: the name must end in .glb. */
export const hasGlbExtension = (name: string): boolean => /\.glb$/i.test(name.trim());
export const CUSTOM_AVATAR_NAME_MAX = 60;
export const CUSTOM_AVATAR_DESCRIPTION_MAX = 500;
export const CUSTOM_AVATAR_TAGS_MAX = 300;

/** Custom avatar ids: `avatar-` and a UUIDv7, never a system id. */
export const CUSTOM_AVATAR_ID_PATTERN = /^avatar-[0-9a-f-]{36}$/;
export const isCustomAvatarId = (id: string): boolean => CUSTOM_AVATAR_ID_PATTERN.test(id);
/** Spec §3: the fallback model path shape. */
export const customAvatarModelUrl = (id: string): string => `/api/upload/avatar/${id}/model`;
/** The portrait processing drew for the picker (SPEC.md AV-7), fetched with the bearer credential. */
export const customAvatarPortraitUrl = (id: string): string => `/api/upload/avatar/${id}/portrait`;

export const AVATAR_UPLOAD_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type AvatarUploadStatus = (typeof AVATAR_UPLOAD_STATUSES)[number];
/** Steps as pushed in `upload:progress.step` and shown by the feedback panel (20/40/60/80, spec §4). */
export const AVATAR_PROCESSING_STEPS = [
  'queued',
  'validating',
  'inspecting',
  'analysing',
  'optimising',
  'stored',
] as const;
export type AvatarProcessingStep = (typeof AVATAR_PROCESSING_STEPS)[number];
export const AVATAR_CAPABILITIES = [
  'skeleton',
  'visemes',
  'blink',
  'expressions',
  'fingers',
  'eyes',
  'jaw',
  'pose',
] as const;
export type AvatarCapability = (typeof AVATAR_CAPABILITIES)[number];
/**
 * What the report warns about (SPEC.md AU-14): `static_mesh` — no skin and no morph targets, so
 * the avatar can neither speak nor gesture (it sways on the stage, ST-2); `no_skeleton` — no
 * gestures; `no_lip_sync` — no visemes, jaw bone or jaw morph, so the lips never move;
 * `missing_core_bones`, `heavy_mesh` (over 100,000 vertices), `large_textures` (over 2048², scaled).
 */
export const AVATAR_REPORT_WARNINGS = [
  'static_mesh',
  'no_skeleton',
  'no_lip_sync',
  'missing_core_bones',
  'heavy_mesh',
  'large_textures',
] as const;
export type AvatarReportWarning = (typeof AVATAR_REPORT_WARNINGS)[number];
/** Why processing failed, as a code the client translates (the message is in the request's language). */
export const AVATAR_FAILURE_CODES = [
  'invalid_glb',
  'model_rejected',
  'validation_failed',
  'unreadable_model',
  'empty_model',
  'timeout',
  'too_complex',
  'processing_failed',
  'interrupted',
] as const;
export type AvatarFailureCode = (typeof AVATAR_FAILURE_CODES)[number];

export const RigMetadataSchema = z.object({
  rigType: z.enum(['humanoid', 'mixamo', 'custom']),
  skinned: z.boolean(),
  basePose: z.enum(['T', 'A', 'unknown']),
  boneMap: z.record(z.string(), z.string()),
  missingCoreBones: z.array(z.string()),
  boneCount: z.number().int().nonnegative(),
  morphTargets: z.array(z.string()),
  visemes: z.array(z.string()),
  vertexCount: z.number().int().nonnegative(),
  textures: z.number().int().nonnegative(),
});
export type RigMetadata = z.infer<typeof RigMetadataSchema>;

export const AnimationConfigSchema = z.object({
  lipSync: z.enum(['visemes', 'jaw', 'none']),
  blink: z.boolean(),
  expressions: z.boolean(),
  gestures: z.boolean(),
  fingers: z.boolean(),
  armsDownFromPose: z.enum(['T', 'A', 'unknown']),
});
export type AnimationConfig = z.infer<typeof AnimationConfigSchema>;

export const CompatibilityReportSchema = z.object({
  score: z.number().int().min(0).max(100),
  capabilities: z.array(
    z.object({ id: z.enum(AVATAR_CAPABILITIES), coverage: z.number(), works: z.boolean() }),
  ),
  works: z.array(z.enum(AVATAR_CAPABILITIES)),
  missing: z.array(z.enum(AVATAR_CAPABILITIES)),
  /** `AVATAR_REPORT_WARNINGS` codes (a string, so a report stored before a new code still reads). */
  warnings: z.array(z.string()),
  /** Validator errors processing repaired, by code, with how many places (SPEC.md AU-12). */
  repaired: z.array(z.object({ code: z.string(), count: z.number().int().nonnegative() })).optional(),
  /** Embedded animations removed: the engine animates the avatar itself (AU-12). */
  removedAnimations: z.number().int().nonnegative().optional(),
  /** Extensions the client ignores, dropped by processing. */
  droppedExtensions: z.array(z.string()).optional(),
  /**
   * Extensions the stored model uses, every one the client loads (`KHR_texture_basisu` kept as
   * it came, `EXT_meshopt_compression` from processing); for the check, those of the file sent.
   */
  extensions: z.array(z.string()).optional(),
});
export type CompatibilityReport = z.infer<typeof CompatibilityReportSchema>;

/** Spec §3 Custom avatar, every field. */
export const CustomAvatarSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.literal('custom'),
  tags: z.array(z.string()),
  isPublic: z.literal(false),
  status: z.enum(AVATAR_UPLOAD_STATUSES),
  step: z.enum(AVATAR_PROCESSING_STEPS),
  progress: z.number().int().min(0).max(100),
  startTime: z.string(),
  /** Seconds the processing is expected to take from start. */
  estimatedTime: z.number().nonnegative(),
  isReady: z.boolean(),
  hasError: z.boolean(),
  error: z
    .object({
      code: z.enum(AVATAR_FAILURE_CODES),
      message: z.string(),
      /** What the checks or the validator found, in plain words (AU-4). */
      details: z.array(z.string()).optional(),
    })
    .nullable(),
  modelUrl: z.string().nullable(),
  /** The picker's portrait (WebP, SPEC.md AV-7) once completed; answers 404 if none could be drawn. */
  portraitUrl: z.string().nullable(),
  modelPath: z.string().nullable(),
  modelFilename: z.string().nullable(),
  originalName: z.string(),
  rigMetadata: RigMetadataSchema.nullable(),
  animationConfig: AnimationConfigSchema.nullable(),
  compatibility: CompatibilityReportSchema.nullable(),
  compatibilityScore: z.number().int().min(0).max(100).nullable(),
  originalSize: z.number().int().nonnegative(),
  processedSize: z.number().int().nonnegative().nullable(),
  compressionRatio: z.number().nonnegative().nullable(),
  isCustom: z.literal(true),
  isProcessed: z.boolean(),
  processing: z.object({ status: z.enum(['processing', 'completed']) }),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type CustomAvatar = z.infer<typeof CustomAvatarSchema>;

/** Spec §7 status shape (polled every 2 s when the socket is down). */
export const AvatarStatusSchema = CustomAvatarSchema.pick({
  id: true,
  status: true,
  step: true,
  progress: true,
  name: true,
  description: true,
  category: true,
  estimatedTime: true,
  startTime: true,
  isReady: true,
  hasError: true,
  error: true,
});

const AvatarIdSchema = z.string({ error: 'required' }).regex(CUSTOM_AVATAR_ID_PATTERN, 'invalid');
const UserIdSchema = z.string().min(1, 'required').max(64, 'invalid');

/**
 * The multipart routes (upload, compatibility-check) and the model binary are registered by hand
 * and are not in `allRoutes`: their bodies are files, not JSON (the fuzzer sends JSON).
 */
export const avatarUploadRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/api/upload/avatar/:id/status',
    auth: true,
    params: z.object({ id: AvatarIdSchema }),
    response: z.object({ success: z.literal(true), avatar: AvatarStatusSchema }),
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/upload/avatar/:id/cancel',
    auth: true,
    params: z.object({ id: AvatarIdSchema }),
    response: z.object({ success: z.literal(true), avatar: AvatarStatusSchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/upload/avatar/:id',
    auth: true,
    params: z.object({ id: AvatarIdSchema }),
    response: z.object({ success: z.literal(true), avatar: CustomAvatarSchema }),
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/upload/avatars/:userId',
    auth: true,
    params: z.object({ userId: UserIdSchema }),
    response: z.object({ success: z.literal(true), avatars: z.array(CustomAvatarSchema) }),
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/upload/avatar/:id',
    auth: true,
    params: z.object({ id: AvatarIdSchema }),
    /** One client variant sends its userId in the body (spec §7); it must be the caller's. */
    body: z.object({ userId: UserIdSchema.optional() }).optional(),
    response: z.object({ success: z.literal(true), message: z.string() }),
  }),
  stats: defineRoute({
    method: 'GET',
    path: '/api/upload/processing-stats',
    auth: true,
    response: z.object({
      success: z.literal(true),
      stats: z.object({
        queued: z.number().int().nonnegative(),
        processing: z.number().int().nonnegative(),
        completed: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
        cancelled: z.number().int().nonnegative(),
        /** The caller's own jobs: average processing time of completed ones, ms. */
        averageProcessingMs: z.number().nonnegative().nullable(),
        workers: z.number().int().positive(),
      }),
    }),
  }),
};

/** Multipart text fields of POST /api/upload/avatar besides the file `avatar` (spec §3 Upload options). */
export const AvatarUploadFieldsSchema = z.object({
  name: z.string().trim().max(CUSTOM_AVATAR_NAME_MAX, 'tooLong').optional(),
  description: z.string().trim().max(CUSTOM_AVATAR_DESCRIPTION_MAX, 'tooLong').optional(),
  category: z.string().max(32, 'invalid').optional(),
  tags: z.string().max(CUSTOM_AVATAR_TAGS_MAX, 'tooLong').optional(),
  isPublic: z.enum(['true', 'false']).optional(),
  forceProcess: z.enum(['true', 'false']).optional(),
});

export const AvatarUploadResponseSchema = z.object({ success: z.literal(true), avatar: CustomAvatarSchema });
export const CompatibilityCheckResponseSchema = z.object({
  success: z.literal(true),
  compatibility: CompatibilityReportSchema,
  rigMetadata: RigMetadataSchema,
  animationConfig: AnimationConfigSchema,
});
