import {
  fieldMessage,
  isSystemAvatarId,
  type FieldError,
  type Language,
  type Preferences,
} from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { CustomAvatarRepository, UserRepository } from '../../storage/types.ts';

/**
 * Preferences (spec §7 Preferences). Always the caller's own: the user id comes from the access
 * token, never from the request, so there is nothing to point at another user's data. An avatar
 * id must be a system character or one of the caller's own custom avatars that is ready (issue
 * 11); the store keeps `User.avatar` as the chosen one.
 */
export function createUsersService(deps: {
  users: UserRepository;
  customAvatars: Pick<CustomAvatarRepository, 'find'>;
}) {
  const { users, customAvatars } = deps;

  /** An avatar id the caller may choose: a system character or their own ready custom avatar. */
  const choosable = async (userId: string, id: string): Promise<boolean> =>
    isSystemAvatarId(id) || (await customAvatars.find(userId, id))?.status === 'completed';

  return {
    async getPreferences(userId: string): Promise<Preferences> {
      const preferences = await users.getPreferences(userId);
      if (!preferences) throw new AppError('unauthorized');
      return preferences;
    },

    /** A theme given here is also the account's theme (the dashboard shows one setting). */
    async updatePreferences(
      userId: string,
      patch: Partial<Preferences>,
      language: Language = 'es',
    ): Promise<Preferences> {
      const fields: FieldError[] = [];
      for (const field of ['avatar', 'selectedAvatarId'] as const) {
        const id = patch[field];
        if (typeof id === 'string' && !(await choosable(userId, id)))
          fields.push({
            field,
            code: 'avatarUnavailable',
            message: fieldMessage(language, 'avatarUnavailable'),
          });
      }
      if (fields.length) throw new AppError('validation_failed', { fields });
      const preferences = await users.updatePreferences(userId, patch);
      if (!preferences) throw new AppError('unauthorized');
      if (patch.theme !== undefined) await users.update(userId, { theme: patch.theme });
      return preferences;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
