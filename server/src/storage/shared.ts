import type { ChatSession, Emotion, Preferences } from '@alma/protocol';
import {
  PreferencesPatchSchema,
  StoredChatSessionSchema,
  UserRecordSchema,
  definedFields,
  readRecord,
  type NewUser,
  type SessionRecord,
  type UserRecord,
} from './records.ts';
import { DEFAULT_PREFERENCES } from './types.ts';

/**
 * What both implementations agree on, declared once: defaults, limits and paging arithmetic. Rows
 * become records through their schemas (records.ts).
 */

/** Emails are compared and stored lower-case, so uniqueness ignores case. */
export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

/** The stored form of a new account: profile fields the sign-up form does not ask for get defaults. */
export function newUserRecord(user: NewUser): UserRecord {
  return UserRecordSchema.parse({
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

/**
 * The preference fields set in a patch (or in what a store saved): unknown keys and undefined
 * values are dropped, so only real preferences are ever stored.
 */
export const preferencesPatch = (patch: Partial<Preferences>): Partial<Preferences> =>
  definedFields(PreferencesPatchSchema, patch);

/** The avatar a user has chosen, as `User.avatar` mirrors it: the account's selection, else the device's. */
export const chosenAvatar = (preferences: Preferences): string | null =>
  preferences.selectedAvatarId ?? preferences.avatar;

/** Stored preferences are sparse (only what was saved); the rest are the defaults. */
export function withDefaultPreferences(saved: Partial<Preferences> | null | undefined): Preferences {
  return { ...DEFAULT_PREFERENCES, ...preferencesPatch(saved ?? {}) };
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

/** A session as callers see it: the owner is implied by the query, the count is derived. */
export function toChatSession(
  source: SessionRecord & { dominantEmotion?: Emotion | null },
  messageCount: number,
): ChatSession {
  return readRecord(StoredChatSessionSchema, 'sessions', { ...source, messageCount });
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
