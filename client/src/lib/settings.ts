import { create } from 'zustand';
import {
  FALLBACK_LANGUAGE,
  LISTED_LANGUAGE_CODES,
  type Language,
  type Theme,
  type User,
} from '@alma/protocol';
import { isLanguage, setLanguage } from './i18n.ts';
import { useSession } from './session.ts';
import { readString, StorageKey, writeString } from './storage.ts';
import { useTheme } from './theme.ts';

/**
 * The interface settings every screen offers (language toggle, theme toggle) and the dashboard
 * repeats: applied at once on this device, and saved to the account when someone is signed in.
 */

/** The codes of the language picker (spec §1), lower-case like i18n language codes. */
export type ListedLanguage = Lowercase<(typeof LISTED_LANGUAGE_CODES)[number]>;
export const LISTED_LANGUAGES = LISTED_LANGUAGE_CODES.map((code) => code.toLowerCase() as ListedLanguage);

export function isListedLanguage(value: unknown): value is ListedLanguage {
  return typeof value === 'string' && (LISTED_LANGUAGES as readonly string[]).includes(value);
}

/** Only Spanish and English have an interface; every other listed code shows English. */
export function interfaceLanguageFor(code: ListedLanguage): Language {
  return isLanguage(code) ? code : FALLBACK_LANGUAGE;
}

/**
 * The code the picker shows: the stored pick while it still explains the interface language
 * (a pick of FR shows English), otherwise the interface language itself (it was changed elsewhere,
 * or detected from the browser).
 */
export function shownLanguage(stored: string | null, current: Language): ListedLanguage {
  if (isListedLanguage(stored) && interfaceLanguageFor(stored) === current) return stored;
  return current;
}

interface LanguageChoiceState {
  stored: string | null;
}

export const useLanguageChoice = create<LanguageChoiceState>()(() => ({
  stored: readString(StorageKey.languageChoice),
}));

/**
 * Picks a listed language: the interface switches (falling back to English), the pick is kept
 * locally, and for es / en it is also saved as the account's language. Resolves with the updated
 * user when the server was told; rejects (ApiError) when it refused.
 */
export async function chooseLanguage(code: ListedLanguage): Promise<User | null> {
  writeString(StorageKey.languageChoice, code);
  useLanguageChoice.setState({ stored: code });
  await setLanguage(interfaceLanguageFor(code));
  const { token, user } = useSession.getState();
  if (!token || !user || !isLanguage(code) || user.language === code) return null;
  // The API client (zod and the protocol's schemas) loads only for a signed-in user: the
  // language switch sits on the lean first screens (README "A lean first screen").
  const { saveAccountLanguage } = await import('./account-sync.ts');
  return saveAccountLanguage(code);
}

/** Sets the theme here and, when signed in, on the account (PUT /api/users/preferences). */
export async function chooseTheme(theme: Theme): Promise<void> {
  useTheme.getState().setTheme(theme);
  const { token, user } = useSession.getState();
  if (!token || !user) return;
  const { saveAccountTheme } = await import('./account-sync.ts');
  await saveAccountTheme(user.id, theme);
  if (user.theme !== theme) useSession.getState().setUser({ ...user, theme });
}
