import {
  AVATAR_FAILURE_CODES,
  AVATAR_PROCESSING_STEPS,
  AVATAR_UPLOAD_STATUSES,
  AnimationConfigSchema,
  ChatSessionSchema,
  CompatibilityReportSchema,
  CustomVoiceSchema,
  EMOTIONS,
  EmotionSchema,
  GestureSchema,
  MessageSchema,
  ModelFindingSchema,
  OAuthProviderSchema,
  PersonalitySchema,
  PreferencesSchema,
  RigMetadataSchema,
  UserSchema,
  type AvatarFailureCode,
  type ModelFinding,
} from '@alma/protocol';
import { z } from 'zod';

/**
 * What the stores keep, declared once as schemas; the record types of types.ts are their output
 * types. A record that mirrors a protocol entity is that entity's schema extended, so the two
 * cannot drift.
 *
 * Both implementations turn whatever a driver returns into a record with `readRecord` — and a
 * record into a row with `XSchema.parse(record)` before writing. Objects are stripped to the
 * declared fields at every depth, so nothing a driver adds (libsql's `_metadata`, MongoDB's `_id`,
 * a message's `userId`) leaks to callers, and a field added to a schema is mapped everywhere at once.
 *
 * Rows written by earlier releases read as today's records: a field added later has a default
 * here (or is optional), so an older row missing it reads as that default. A row that does not fit
 * (a value no release writes) is refused with a `StoredRecordError` naming the store, the row and
 * the fields — never skipped, which would make counts, pages and the export lie (README Decisions).
 */

/** A stored row that does not fit its record; the message names the store, the row's id and the fields. */
export class StoredRecordError extends Error {
  override readonly name = 'StoredRecordError';
}

/** The keys that name a row in an error (ids only: never a token hash or a user's text). */
const ROW_KEYS = ['_id', 'id', 'sessionId'] as const;

/**
 * `row` as the record `schema` declares, or a `StoredRecordError` saying which row of `store` does
 * not fit and where (the issues name fields and expected values, not the stored values). The row
 * is named by `key`, else by its id.
 */
export function readRecord<S extends z.ZodType>(
  schema: S,
  store: string,
  row: unknown,
  key?: string,
): z.output<S> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  const fields = row !== null && typeof row === 'object' ? (row as Record<string, unknown>) : {};
  const name = key ?? ROW_KEYS.map((k) => fields[k]).find((value) => typeof value === 'string');
  throw new StoredRecordError(
    `a row of ${store}${name === undefined ? '' : ` (${String(name)})`} does not fit its record:\n${z.prettifyError(result.error)}`,
    { cause: result.error },
  );
}

/** An account with what only the server sees. */
export const UserRecordSchema = UserSchema.extend({
  /** Empty for accounts created through an outside provider until a password is set. */
  passwordHash: z.string(),
});
export type UserRecord = z.infer<typeof UserRecordSchema>;

/**
 * What `UserRepository.update` may change; anything else in a patch (the email) is dropped.
 * Parsed with `definedFields`, so a field a patch leaves undefined is not written.
 */
export const UserPatchSchema = UserRecordSchema.pick({
  name: true,
  bio: true,
  language: true,
  theme: true,
  emailNotifications: true,
  pushNotifications: true,
  passwordHash: true,
  emailVerified: true,
  role: true,
  plan: true,
}).partial();
export type UserPatch = z.infer<typeof UserPatchSchema>;

/** Saved preferences are sparse: only the fields set are stored, the defaults fill the rest. */
export const PreferencesPatchSchema = PreferencesSchema.partial();

/** A new account; profile fields the sign-up form does not ask for get defaults when stored. */
export const NewUserSchema = UserRecordSchema.pick({
  id: true,
  name: true,
  email: true,
  passwordHash: true,
  plan: true,
  role: true,
  language: true,
  theme: true,
  createdAt: true,
}).extend({ emailVerified: z.boolean().optional() });
export type NewUser = z.infer<typeof NewUserSchema>;

/** Single-use links sent by email (password reset, email verification). */
export const OneTimeTokenRecordSchema = z.object({
  tokenHash: z.string(),
  userId: z.string(),
  kind: z.enum(['reset', 'verify']),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
});
export type OneTimeTokenRecord = z.infer<typeof OneTimeTokenRecordSchema>;

/** An account at an outside identity provider linked to a user. */
export const IdentityRecordSchema = z.object({
  provider: OAuthProviderSchema,
  /** The provider's stable user id (`sub` for OpenID Connect, the numeric id for GitHub). */
  subject: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  createdAt: z.string(),
});
export type IdentityRecord = z.infer<typeof IdentityRecordSchema>;

/** Monthly counters; `period` is `YYYY-MM` in UTC (SPEC.md L-2). Nothing counted reads as zeros. */
export const UsageRecordSchema = z.object({
  messages: z.number().default(0),
  voiceSeconds: z.number().default(0),
});
export type UsageRecord = z.infer<typeof UsageRecordSchema>;

export const RefreshTokenRecordSchema = z.object({
  /** sha256 of the token, hex; the token itself is never stored. */
  tokenHash: z.string(),
  userId: z.string(),
  /** All tokens descended from one login share a family; reuse of a rotated one revokes it. */
  familyId: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** Set when rotated or revoked. */
  revokedAt: z.string().nullable(),
  /** The hash of the token that replaced this one on rotation. */
  replacedBy: z.string().nullable(),
});
export type RefreshTokenRecord = z.infer<typeof RefreshTokenRecordSchema>;

/**
 * A session's conversation context as stored (SPEC.md C-11): the spec's fields plus what the next
 * update builds on (the user's own name, the number of exchanges).
 */
export const ConversationContextSchema = z.object({
  summary: z.string(),
  topics: z.array(z.string()),
  /** People named, the user included; oldest first. */
  names: z.array(z.string()),
  /** The latest points the user made, oldest first. */
  keyPoints: z.array(z.string()),
  userName: z.string().nullable().default(null),
  exchanges: z.number(),
});
export type ConversationContext = z.infer<typeof ConversationContextSchema>;

/** Decayed per-emotion scores of the companion's replies; the highest is the dominant emotion. */
export const EmotionScoresSchema = z.object(
  Object.fromEntries(EMOTIONS.map((emotion) => [emotion, z.number().optional()])) as Record<
    (typeof EMOTIONS)[number],
    z.ZodOptional<z.ZodNumber>
  >,
);
export type EmotionScores = z.infer<typeof EmotionScoresSchema>;

/** Who set a session's title: the user (never overwritten automatically) or the auto-title. */
export const TitleSourceSchema = z.enum(['user', 'auto']);
export type TitleSource = z.infer<typeof TitleSourceSchema>;

export const SessionRecordSchema = ChatSessionSchema.pick({
  sessionId: true,
  title: true,
  personality: true,
  createdAt: true,
  updatedAt: true,
}).extend({
  userId: z.string(),
  /** Null (the default) while untitled or for titles of unknown origin. */
  titleSource: TitleSourceSchema.nullish(),
});
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** What `SessionRepository.update` may change. */
export const SessionPatchSchema = z
  .object({
    title: z.string().nullable(),
    titleSource: TitleSourceSchema.nullable(),
    personality: PersonalitySchema,
    updatedAt: z.string(),
    context: ConversationContextSchema,
    emotionScores: EmotionScoresSchema,
    dominantEmotion: EmotionSchema.nullable(),
  })
  .partial();
export type SessionPatch = z.infer<typeof SessionPatchSchema>;

/** A session as callers see it: the owner is implied by the query, the count is derived. */
export const StoredChatSessionSchema = ChatSessionSchema.extend({
  dominantEmotion: EmotionSchema.nullable().default(null),
});

/** A new message: the message, its owner, and what the send carried (SPEC.md C-13). */
export const NewMessageSchema = MessageSchema.extend({
  userId: z.string(),
  /** A reply's gesture (its animation intent is derived from it and the emotion). */
  gesture: GestureSchema.nullish(),
  /** What the send carried (SPEC.md C-13); a reply repeats its user message's. */
  voiceId: z.string().nullish(),
  avatarId: z.string().nullish(),
});
export type NewMessage = z.input<typeof NewMessageSchema>;

/** A message with the fields only the export reads; absent ones (rows older than them) read as null. */
export const StoredMessageSchema = MessageSchema.extend({
  gesture: GestureSchema.nullable().default(null),
  voiceId: z.string().nullable().default(null),
  avatarId: z.string().nullable().default(null),
});
export type StoredMessage = z.infer<typeof StoredMessageSchema>;

/**
 * What a reply's history needs of a message (the engine's context, issue 14): reading a long
 * session's last 42 messages whole cost ~2.5× these four fields.
 */
export const MessageTurnSchema = MessageSchema.pick({ _id: true, role: true, content: true, language: true });
export type MessageTurn = z.infer<typeof MessageTurnSchema>;

/** What a reply's row gets as it streams and when it ends (SPEC.md C-5). */
export const ReplyPatchSchema = MessageSchema.pick({
  content: true,
  isComplete: true,
  emotion: true,
  emotionAnalysis: true,
}).extend({
  gesture: GestureSchema.nullable(),
  /** The reply's audio file (`/audio/<file>`, SPEC.md S-4); absent keeps the stored value. */
  audioUrl: z.string().nullable().optional(),
});
export type ReplyPatch = z.infer<typeof ReplyPatchSchema>;

/** An uploaded voice (SPEC.md VU-5); its sample is the blob `file` in the custom-voices store. */
export const CustomVoiceRecordSchema = CustomVoiceSchema.pick({
  id: true,
  userId: true,
  name: true,
  description: true,
  category: true,
  language: true,
  gender: true,
  format: true,
  originalName: true,
  size: true,
  createdAt: true,
  analysis: true,
  speech: true,
}).extend({
  /** Blob name of the sample (`<id>.<ext>`). */
  file: z.string(),
});
export type CustomVoiceRecord = z.infer<typeof CustomVoiceRecordSchema>;

/** Fields a custom avatar's processing changes (SPEC.md AU-4). */
export const CustomAvatarProgressSchema = z.object({
  status: z.enum(AVATAR_UPLOAD_STATUSES),
  step: z.enum(AVATAR_PROCESSING_STEPS),
  progress: z.number(),
  /** Blob name of the upload as received; null once processing is over (it is removed then). */
  uploadFile: z.string().nullable(),
  /** Blob name of the optimised model, once completed. */
  modelFile: z.string().nullable(),
  processedSize: z.number().nullable(),
  compressionRatio: z.number().nullable(),
  rigMetadata: RigMetadataSchema.nullable(),
  animationConfig: AnimationConfigSchema.nullable(),
  compatibility: CompatibilityReportSchema.nullable(),
  /** Why it failed; `findings` are what the checks or the validator found, shown to the user. */
  error: z
    .object({
      code: z.enum(AVATAR_FAILURE_CODES),
      detail: z.string(),
      findings: z.array(ModelFindingSchema).optional(),
    })
    // No findings is stored as none, so a record reads the same whichever way it was written.
    .transform(
      ({ findings, ...error }): { code: AvatarFailureCode; detail: string; findings?: ModelFinding[] } =>
        findings?.length ? { ...error, findings } : error,
    )
    .nullable(),
  completedAt: z.string().nullable(),
});
export type CustomAvatarProgress = z.infer<typeof CustomAvatarProgressSchema>;

/** What `CustomAvatarRepository.update` may change: any of the progress fields. */
export const CustomAvatarPatchSchema = CustomAvatarProgressSchema.partial();

/** An uploaded avatar (spec §3 Custom avatar; SPEC.md AU-4); its files are blobs in the avatar store. */
export const CustomAvatarRecordSchema = CustomAvatarProgressSchema.extend({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  originalName: z.string(),
  originalSize: z.number(),
  createdAt: z.string(),
  /** When processing started (the spec's startTime). */
  startedAt: z.string(),
  /** Expected processing time from the start, ms. */
  estimatedMs: z.number(),
});
export type CustomAvatarRecord = z.infer<typeof CustomAvatarRecordSchema>;

/**
 * The fields of a patch that are set: parsed by `schema` (unknown keys dropped), then those left
 * undefined removed, so a patch built by spreading writes only what it means to.
 */
export function definedFields<S extends z.ZodType<object>>(schema: S, patch: unknown): Partial<z.output<S>> {
  return Object.fromEntries(
    Object.entries(schema.parse(patch)).filter(([, value]) => value !== undefined),
  ) as Partial<z.output<S>>;
}
