import type { TFunction } from 'i18next';
import { AVATAR_CATEGORIES, type AvatarCategory, type SystemAvatar } from '@alma/protocol';

/**
 * The avatar selector's pure parts (spec §2 "Avatar selector modal", §4 Avatar selection): how an
 * avatar is named and grouped, and which choice the selector starts from.
 */

/** Names and descriptions are localised by id; the server's text is the fallback. */
export function avatarText(avatar: Pick<SystemAvatar, 'id' | 'name' | 'description'>, t: TFunction) {
  return {
    name: t(`avatars.${avatar.id}.name` as 'avatars.golem.name', { defaultValue: avatar.name }),
    description: t(`avatars.${avatar.id}.description` as 'avatars.golem.description', {
      defaultValue: avatar.description,
    }),
  };
}

/** Spec §3: a missing or unknown category reads as general. */
export function avatarCategory(avatar: { category?: string | null }): AvatarCategory {
  return (AVATAR_CATEGORIES as readonly string[]).includes(avatar.category ?? '')
    ? (avatar.category as AvatarCategory)
    : 'general';
}

/**
 * The picker's radio value for the default avatar (SPEC.md AV-7): no catalogue or upload id is
 * `default`, and a confirm stores it as null.
 */
export const DEFAULT_CHOICE = 'default';

/** The selector starts on the stored choice when the catalogue still has it; otherwise nothing. */
export function initialChoice(
  stored: string | null | undefined,
  avatars: readonly { id: string }[],
): string | null {
  return stored && avatars.some((a) => a.id === stored) ? stored : null;
}

/** The avatar a confirm may store: one of the list, or null (the default avatar). */
export function confirmedChoice(value: string | null, avatars: readonly { id: string }[]): string | null {
  return value && avatars.some((a) => a.id === value) ? value : null;
}
