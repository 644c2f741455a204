import { routes, type Language, type Theme, type User } from '@alma/protocol';
import { call } from './api.ts';
import { savePreferences } from './preferences.ts';
import { useSession } from './session.ts';

/**
 * Saving a language or theme choice to the account (lib/settings.ts loads this on demand, so the
 * anonymous first screens do without the API client).
 */
export async function saveAccountLanguage(code: Language): Promise<User> {
  const { user } = await call(routes.account.updateDetails, { body: { language: code } });
  useSession.getState().setUser(user);
  return user;
}

export async function saveAccountTheme(userId: string, theme: Theme): Promise<void> {
  await savePreferences(userId, { theme });
}
