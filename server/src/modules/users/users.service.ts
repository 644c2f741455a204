import type { Preferences } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { UserRepository } from '../../storage/types.ts';

/**
 * Preferences (spec §7 Preferences). Always the caller's own: the user id comes from the access
 * token, never from the request, so there is nothing to point at another user's data.
 */
export function createUsersService(deps: { users: UserRepository }) {
  const { users } = deps;
  return {
    async getPreferences(userId: string): Promise<Preferences> {
      const preferences = await users.getPreferences(userId);
      if (!preferences) throw new AppError('unauthorized');
      return preferences;
    },

    /** A theme given here is also the account's theme (the dashboard shows one setting). */
    async updatePreferences(userId: string, patch: Partial<Preferences>): Promise<Preferences> {
      const preferences = await users.updatePreferences(userId, patch);
      if (!preferences) throw new AppError('unauthorized');
      if (patch.theme !== undefined) await users.update(userId, { theme: patch.theme });
      return preferences;
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
