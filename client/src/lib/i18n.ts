import i18next, { type i18n as I18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  ERROR_MESSAGES,
  FALLBACK_LANGUAGE,
  FIELD_MESSAGES,
  LANGUAGES,
  type Language,
} from '@alma/protocol';
import es from '../locales/es.json';
import en from '../locales/en.json';
import { StorageKey } from './storage.ts';

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

export const resources = {
  es: { translation: withProtocolTexts(es, 'es') },
  en: { translation: withProtocolTexts(en, 'en') },
} as const;

export type AppTranslation = ReturnType<typeof withProtocolTexts<typeof es>>;

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
 * Spanish by default, English as the fallback; detection order local storage → browser →
 * `<html lang>`, cached in local storage under `preferredLanguage` (spec §1, §3).
 */
export function createI18n(instance: I18n = i18next.createInstance()): I18n {
  void instance
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources,
      supportedLngs: [...LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: FALLBACK_LANGUAGE,
      interpolation: { escapeValue: false },
      initAsync: false,
      detection: {
        order: ['localStorage', 'navigator', 'htmlTag'],
        lookupLocalStorage: StorageKey.preferredLanguage,
        caches: ['localStorage'],
        convertDetectedLanguage: (lng: string) => toSupportedLanguage(lng),
      },
    });
  syncHtmlLang(instance.language);
  instance.on('languageChanged', syncHtmlLang);
  return instance;
}

export const i18n = createI18n(i18next);

export function setLanguage(language: Language): Promise<unknown> {
  return i18n.changeLanguage(language);
}
