import i18next, { type i18n as I18n, type LanguageDetectorModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  type ERROR_MESSAGES,
  type FIELD_MESSAGES,
  type Language,
} from '@alma/protocol';
import type es from '../locales/es.json';
import { readString, StorageKey, writeString } from './storage.ts';

type LocaleFile = typeof es;

/**
 * A language's texts as the app sees them: its locale file plus the protocol's error and field
 * texts under `errors.*` and `validation.*` (merged into the first part at build time,
 * client/locale-parts.ts).
 */
export type AppTranslation = Omit<LocaleFile, 'errors'> & {
  errors: LocaleFile['errors'] & (typeof ERROR_MESSAGES)['es'];
  validation: (typeof FIELD_MESSAGES)['es'];
};

/**
 * Each language's texts come in parts, each its own chunk (client/locale-parts.ts says which
 * sections each holds): `shell` before the first render (app/main.tsx), then each screen's own
 * parts with its chunk (app/routes.tsx) — the landing page and the auth pages load only theirs.
 * Another language is fetched whole when the user switches to it.
 */
export type TextPart = 'shell' | 'landing' | 'auth' | 'rest';
export const TEXT_PARTS: readonly TextPart[] = ['shell', 'landing', 'auth', 'rest'];

type Part = Partial<LocaleFile>;
const localeParts: Record<Language, Record<TextPart, () => Promise<Part>>> = {
  es: {
    shell: async () => (await import('../locales/es.json?part=shell')).default,
    landing: async () => (await import('../locales/es.json?part=landing')).default,
    auth: async () => (await import('../locales/es.json?part=auth')).default,
    rest: async () => (await import('../locales/es.json?part=rest')).default,
  },
  en: {
    shell: async () => (await import('../locales/en.json?part=shell')).default,
    landing: async () => (await import('../locales/en.json?part=landing')).default,
    auth: async () => (await import('../locales/en.json?part=auth')).default,
    rest: async () => (await import('../locales/en.json?part=rest')).default,
  },
};

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
      done = localeParts[language][part]().then((texts) => {
        instance.addResourceBundle(language, 'translation', texts, true, true);
      });
      // A failed fetch (offline) is tried again next time.
      done.catch(() => loading.delete(key));
      loading.set(key, done);
    }
    return done;
  });
  return Promise.all(all).then(() => undefined);
}

/** Parts of the interface language's texts: what a screen awaits with its chunk. */
export function loadTexts(parts: readonly TextPart[], instance: I18n = i18n): Promise<void> {
  return loadLanguage(currentLanguage(instance), parts, instance);
}

/** Switches the interface language: `parts` of its texts first (all of them unless told). */
export async function setLanguage(
  language: Language,
  parts: readonly TextPart[] = TEXT_PARTS,
): Promise<unknown> {
  await loadLanguage(language, parts);
  return i18n.changeLanguage(language);
}
