import { EMOTIONS, type ChatSession, type Emotion, type Message, type Preferences } from '@alma/protocol';
import {
  DEFAULT_PREFERENCES,
  type ConversationContext,
  type CustomAvatarRecord,
  type CustomVoiceRecord,
  type EmotionScores,
  type IdentityRecord,
  type NewMessage,
  type NewUser,
  type OneTimeTokenRecord,
  type RefreshTokenRecord,
  type SessionRecord,
  type StoredMessage,
  type UsageRecord,
  type UserPatch,
  type UserRecord,
} from './types.ts';

/**
 * What both implementations agree on, declared once: defaults, paging arithmetic and the pickers
 * that turn whatever a driver returns into the plain types of types.ts.
 *
 * The pickers list every field explicitly rather than spreading, so nothing a driver adds (libsql's
 * `_metadata`, MongoDB's `_id` on users, a message's `userId`) can leak to callers, and the
 * compiler flags a field added to a type but not mapped here.
 */

/** Emails are compared and stored lower-case, so uniqueness ignores case. */
export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

/** The stored form of a new account: profile fields the sign-up form does not ask for get defaults. */
export function newUserRecord(user: NewUser): UserRecord {
  return pickUser({
    ...user,
    email: normalizeEmail(user.email),
    emailVerified: user.emailVerified ?? false,
    bio: '',
    emailNotifications: true,
    pushNotifications: true,
    avatar: null,
    stripeCustomerId: null,
  });
}

export function pickUser(source: UserRecord): UserRecord {
  return {
    id: source.id,
    name: source.name,
    email: source.email,
    passwordHash: source.passwordHash,
    bio: source.bio,
    language: source.language,
    theme: source.theme,
    emailNotifications: source.emailNotifications,
    pushNotifications: source.pushNotifications,
    plan: source.plan,
    role: source.role,
    avatar: source.avatar,
    stripeCustomerId: source.stripeCustomerId,
    emailVerified: source.emailVerified,
    createdAt: source.createdAt,
  };
}

/**
 * The fields `UserRepository.update` may change; anything else in a patch (the email) is ignored.
 * A record over every key of `UserPatch`, so the compiler flags a field added there but not here.
 */
const USER_PATCH_FIELDS = Object.keys({
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
} satisfies Record<keyof UserPatch, true>) as (keyof UserPatch)[];

/** The patch's updatable fields that are set; a patch built by spreading may carry others. */
export function pickUserPatch(patch: UserPatch): UserPatch {
  const picked: Record<string, unknown> = {};
  for (const field of USER_PATCH_FIELDS) {
    if (patch[field] !== undefined) picked[field] = patch[field];
  }
  return picked;
}

const PREFERENCE_FIELDS = Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[];

/**
 * The preference fields set in a patch (or in what a store saved): unknown keys and undefined
 * values are dropped, so only real preferences are ever stored.
 */
export function pickPreferencesPatch(patch: Partial<Preferences>): Partial<Preferences> {
  const picked: Record<string, unknown> = {};
  for (const field of PREFERENCE_FIELDS) {
    if (patch[field] !== undefined) picked[field] = patch[field];
  }
  return picked;
}

/** Stored preferences are sparse (only what was saved); the rest are the defaults. */
/** The avatar a user has chosen, as `User.avatar` mirrors it: the account's selection, else the device's. */
export const chosenAvatar = (preferences: Preferences): string | null =>
  preferences.selectedAvatarId ?? preferences.avatar;

export function withDefaultPreferences(saved: Partial<Preferences> | null | undefined): Preferences {
  return { ...DEFAULT_PREFERENCES, ...pickPreferencesPatch(saved ?? {}) };
}

export function pickOneTimeToken(source: OneTimeTokenRecord): OneTimeTokenRecord {
  return {
    tokenHash: source.tokenHash,
    userId: source.userId,
    kind: source.kind,
    createdAt: source.createdAt,
    expiresAt: source.expiresAt,
    usedAt: source.usedAt,
  };
}

export function pickIdentity(source: IdentityRecord): IdentityRecord {
  return {
    provider: source.provider,
    subject: source.subject,
    userId: source.userId,
    email: source.email,
    createdAt: source.createdAt,
  };
}

export const NO_USAGE: Readonly<UsageRecord> = Object.freeze({ messages: 0, voiceSeconds: 0 });

export function pickUsage(source: UsageRecord | null | undefined): UsageRecord {
  return source == null ? { ...NO_USAGE } : { messages: source.messages, voiceSeconds: source.voiceSeconds };
}

/** A message limit is a non-negative integer, or null for none. */
export function checkMessageLimit(limit: number | null): void {
  if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw new RangeError(`message limit must be a non-negative integer or null: ${limit}`);
  }
}

/** Voice time only grows: a negative or non-finite amount is a caller bug. */
export function checkVoiceSeconds(seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`voice seconds must be a non-negative number: ${seconds}`);
  }
}

export function pickRefreshToken(source: RefreshTokenRecord): RefreshTokenRecord {
  return {
    tokenHash: source.tokenHash,
    userId: source.userId,
    familyId: source.familyId,
    expiresAt: source.expiresAt,
    createdAt: source.createdAt,
    revokedAt: source.revokedAt,
    replacedBy: source.replacedBy,
  };
}

/** A session as callers see it: the owner is implied by the query, the count is derived. */
export function toChatSession(
  source: SessionRecord & { dominantEmotion?: Emotion | null },
  messageCount: number,
): ChatSession {
  return {
    sessionId: source.sessionId,
    title: source.title,
    personality: source.personality,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
    messageCount,
    dominantEmotion: source.dominantEmotion ?? null,
  };
}

/** A stored context as callers see it; accepts what a store saved (JSON, a document). */
export function pickContext(source: ConversationContext | null | undefined): ConversationContext | null {
  if (source == null) return null;
  return {
    summary: source.summary,
    topics: [...source.topics],
    names: [...source.names],
    keyPoints: [...source.keyPoints],
    userName: source.userName ?? null,
    exchanges: source.exchanges,
  };
}

/** Only the emotions' scores, whatever a store added. */
export function pickEmotionScores(source: EmotionScores | null | undefined): EmotionScores {
  const scores: EmotionScores = {};
  for (const emotion of EMOTIONS) {
    const score = source?.[emotion];
    if (typeof score === 'number') scores[emotion] = score;
  }
  return scores;
}

/** A message as callers see it; accepts a `NewMessage` too, dropping its `userId`. */
export function pickMessage(source: Message | NewMessage): Message {
  return {
    _id: source._id,
    sessionId: source.sessionId,
    role: source.role,
    content: source.content,
    createdAt: source.createdAt,
    clientMessageId: source.clientMessageId,
    replyTo: source.replyTo,
    emotion: source.emotion,
    emotionAnalysis: source.emotionAnalysis,
    language: source.language,
    userLanguage: source.userLanguage,
    personality: source.personality,
    audioUrl: source.audioUrl,
    isComplete: source.isComplete,
  };
}

/** A message with the export's fields; absent ones (rows older than them) read as null. */
export function pickStoredMessage(source: Message | NewMessage | StoredMessage): StoredMessage {
  const extra = source as Partial<StoredMessage>;
  return {
    ...pickMessage(source),
    gesture: extra.gesture ?? null,
    voiceId: extra.voiceId ?? null,
    avatarId: extra.avatarId ?? null,
  };
}

/**
 * The slice of a session's messages, counted from the newest, that page `page` covers. Checked
 * here because the drivers read bad values differently and silently: SQLite takes `LIMIT -1` as
 * "no limit", MongoDB takes `limit(0)` as "no limit".
 */
export function pageWindow(page: number, pageSize: number): { skip: number; limit: number } {
  if (!Number.isSafeInteger(page) || page < 1)
    throw new RangeError(`page must be a positive integer: ${page}`);
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`page size must be a positive integer: ${pageSize}`);
  }
  return { skip: (page - 1) * pageSize, limit: pageSize };
}

/** A custom voice with exactly its record's fields (no driver extras at any depth). */
export function pickCustomVoice(source: CustomVoiceRecord): CustomVoiceRecord {
  const a = source.analysis;
  return {
    id: source.id,
    userId: source.userId,
    name: source.name,
    description: source.description,
    category: source.category,
    language: source.language,
    gender: source.gender,
    format: source.format,
    originalName: source.originalName,
    file: source.file,
    size: source.size,
    createdAt: source.createdAt,
    analysis: {
      durationMs: a.durationMs,
      decoded: a.decoded,
      rmsDb: a.rmsDb,
      peakDb: a.peakDb,
      clippingRatio: a.clippingRatio,
      pitchHz: a.pitchHz,
      pitchRangeHz: a.pitchRangeHz ? [a.pitchRangeHz[0], a.pitchRangeHz[1]] : null,
      syllablesPerSecond: a.syllablesPerSecond,
      warnings: [...a.warnings],
    },
    speech: { variant: source.speech.variant, pitch: source.speech.pitch, rate: source.speech.rate },
  };
}

/** A custom avatar with exactly its record's fields; nested JSON is copied as stored. */
export function pickCustomAvatar(source: CustomAvatarRecord): CustomAvatarRecord {
  const copy = <T>(value: T): T => (value === null ? value : (JSON.parse(JSON.stringify(value)) as T));
  return {
    id: source.id,
    userId: source.userId,
    name: source.name,
    description: source.description,
    tags: [...source.tags],
    originalName: source.originalName,
    originalSize: source.originalSize,
    createdAt: source.createdAt,
    startedAt: source.startedAt,
    estimatedMs: source.estimatedMs,
    status: source.status,
    step: source.step,
    progress: source.progress,
    uploadFile: source.uploadFile,
    modelFile: source.modelFile,
    processedSize: source.processedSize,
    compressionRatio: source.compressionRatio,
    rigMetadata: copy(source.rigMetadata),
    animationConfig: copy(source.animationConfig),
    compatibility: copy(source.compatibility),
    error: source.error
      ? {
          code: source.error.code,
          detail: source.error.detail,
          ...(source.error.findings?.length ? { findings: copy(source.error.findings) } : {}),
        }
      : null,
    completedAt: source.completedAt,
  };
}
