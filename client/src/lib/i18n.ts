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
function withProtocolTexts<T extends { errors?: object }>(local: T, language: Language) {
  return {
    ...local,
    errors: { ...local.errors, ...ERROR_MESSAGES[language] },
    validation: { ...FIELD_MESSAGES[language] },
  };
}

export type AppTranslation = ReturnType<typeof withProtocolTexts<LocaleFile>>;

/**
 * Each language's texts come in two parts, each its own chunk (issue 12, "a lean first screen"):
 * `first`, what the first screens show (client/locale-parts.ts lists its sections), loaded before
 * the first render; `rest`, loaded with the first screen that needs it (app/routes.tsx) or in the
 * background once the first screen is up. Another language is fetched when the user switches.
 */
export type TextPart = 'first' | 'rest';
export const TEXT_PARTS: readonly TextPart[] = ['first', 'rest'];

type Part = Partial<LocaleFile>;
const localeParts: Record<Language, Record<TextPart, () => Promise<Part>>> = {
  es: {
    first: async () => (await import('../locales/es.json?part=first')).default,
    rest: async () => (await import('../locales/es.json?part=rest')).default,
  },
  en: {
    first: async () => (await import('../locales/en.json?part=first')).default,
    rest: async () => (await import('../locales/en.json?part=rest')).default,
  },
};

/** A language's texts (all of its file, or a part) as i18next resources, with the protocol's texts. */
export function translationOf(file: Part, language: Language): { translation: AppTranslation } {
  return { translation: withProtocolTexts(file, language) as AppTranslation };
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

/** The parts each i18next instance has (or is fetching), so each is fetched once. */
const partsOf = new WeakMap<I18n, Map<string, Promise<void>>>();

/** Loads parts of one language's texts into `instance` (each once); resolves when they can be shown. */
export function loadLanguage(
  language: Language,
  parts: readonly TextPart[] = TEXT_PARTS,
  instance: I18n = i18n,
): Promise<void> {
  let loading = partsOf.get(instance);
  if (!loading) partsOf.set(instance, (loading = new Map<string, Promise<void>>()));
  const all = parts.map((part) => {
    const key = `${language}:${part}`;
    let done = loading.get(key);
    if (!done) {
      done = localeParts[language][part]().then((file) => {
        const { translation } = translationOf(file, language);
        instance.addResourceBundle(language, 'translation', translation, true, true);
      });
      // A failed fetch (offline) is tried again next time.
      done.catch(() => loading.delete(key));
      loading.set(key, done);
    }
    return done;
  });
  return Promise.all(all).then(() => undefined);
}

/** The rest of the interface language's texts: what every screen past the first ones awaits. */
export function loadAllTexts(instance: I18n = i18n): Promise<void> {
  return loadLanguage(currentLanguage(instance), TEXT_PARTS, instance);
}

/** Switches the interface language: `parts` of its texts first (all of them unless told). */
export async function setLanguage(
  language: Language,
  parts: readonly TextPart[] = TEXT_PARTS,
): Promise<unknown> {
  await loadLanguage(language, parts);
  return i18n.changeLanguage(language);
}
