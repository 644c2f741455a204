import i18next, { type i18n as I18n, type LanguageDetectorModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  ERROR_MESSAGES,
  FALLBACK_LANGUAGE,
  FIELD_MESSAGES,
  LANGUAGES,
  type Language,
} from '@alma/protocol';
import type es from '../locales/es.json';
import { readString, StorageKey, writeString } from './storage.ts';

type LocaleFile = typeof es;

/**
 * The protocol writes the error and field texts once (protocol/src/messages.ts); they are merged
 * here under `errors.*` and `validation.*`, beside the client's own `errors.*` keys.
 */
function withProtocolTexts<T extends { errors: object }>(local: T, language: Language) {
  return {
    ...local,
    errors: { ...local.errors, ...ERROR_MESSAGES[language] },
    validation: { ...FIELD_MESSAGES[language] },
  };
}

export type AppTranslation = ReturnType<typeof withProtocolTexts<LocaleFile>>;

/**
 * Each interface language is its own chunk: the first screen loads only the one it shows (issue
 * 12, "a lean first screen"); another is fetched when the user switches to it.
 */
const localeFiles: Record<Language, () => Promise<LocaleFile>> = {
  es: async () => (await import('../locales/es.json')).default,
  en: async () => (await import('../locales/en.json')).default,
};

/** One language's texts as i18next resources: the locale file plus the protocol's texts. */
export function translationOf(file: LocaleFile, language: Language): { translation: AppTranslation } {
  return { translation: withProtocolTexts(file, language) };
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Detected codes like `en-US` become `en`; anything we have no translation for becomes Spanish. */
export function toSupportedLanguage(detected: string | undefined | null): Language {
  const base = (detected ?? '').toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : DEFAULT_LANGUAGE;
}

export function currentLanguage(instance: I18n = i18next): Language {
  return toSupportedLanguage(instance.resolvedLanguage ?? instance.language);
}

function syncHtmlLang(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = toSupportedLanguage(language);
}

/**
 * Detection in the order local storage → browser → `<html lang>`, the first found mapped to a
 * language we have (anything else is Spanish); a change is cached in local storage under
 * `preferredLanguage` (spec §1, §3). A few lines instead of i18next-browser-languagedetector, which
 * the first screen would load for lookups we do not use.
 */
const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect: () => {
    const browser =
      typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
    const html = typeof document === 'undefined' ? null : document.documentElement.lang;
    return toSupportedLanguage([readString(StorageKey.preferredLanguage), ...browser, html].find(Boolean));
  },
  cacheUserLanguage: (language) => writeString(StorageKey.preferredLanguage, toSupportedLanguage(language)),
};

/** Spanish by default, English as the fallback; the language detected as above. */
export function createI18n(
  instance: I18n = i18next.createInstance(),
  resources: Partial<Record<Language, { translation: AppTranslation }>> = {},
): I18n {
  void instance
    .use(languageDetector)
    .use(initReactI18next)
    .init({
      resources,
      // Languages arrive one at a time (loadLanguage); none is bundled into the entry.
      partialBundledLanguages: true,
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: FALLBACK_LANGUAGE,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  syncHtmlLang(instance.language);
  instance.on('languageChanged', syncHtmlLang);
  return instance;
}

export const i18n = createI18n(i18next);

/** Loads one language's texts into `instance` (once); resolves when they can be shown. */
export async function loadLanguage(language: Language, instance: I18n = i18n): Promise<void> {
  if (instance.hasResourceBundle(language, 'translation')) return;
  const { translation } = translationOf(await localeFiles[language](), language);
  instance.addResourceBundle(language, 'translation', translation, true, true);
}

export async function setLanguage(language: Language): Promise<unknown> {
  await loadLanguage(language);
  return i18n.changeLanguage(language);
}
