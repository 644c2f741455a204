import type { ChatSession, Message } from '@alma/protocol';
import type { NewMessage, NewUser, RefreshTokenRecord, SessionRecord, UserRecord } from './types.ts';

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
    createdAt: source.createdAt,
  };
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
export function toChatSession(source: SessionRecord, messageCount: number): ChatSession {
  return {
    sessionId: source.sessionId,
    title: source.title,
    personality: source.personality,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
    messageCount,
  };
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
