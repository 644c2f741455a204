import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { EMOTIONS, ERROR_MESSAGES, FIELD_MESSAGES } from '@alma/protocol';
import es from '../locales/es.json';
import en from '../locales/en.json';
import { withProtocolTexts } from '../../locale-parts.ts';
import { createI18n, loadLanguage, TEXT_PARTS, toSupportedLanguage, type AppTranslation } from './i18n.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function fresh(languages: readonly string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
  const translationOf = (file: typeof es, language: 'es' | 'en') => ({
    translation: withProtocolTexts(file, language) as AppTranslation,
  });
  return createI18n(i18next.createInstance(), { es: translationOf(es, 'es'), en: translationOf(en, 'en') });
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('locales', () => {
  it('es.json and en.json have exactly the same keys', () => {
    const esKeys = keys(es).sort();
    const enKeys = keys(en).sort();
    expect(esKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
    expect(enKeys.filter((k) => !esKeys.includes(k))).toEqual([]);
  });

  it('names every emotion the server can send, "surprised" included (SPEC C-17)', () => {
    expect(EMOTIONS).toContain('surprised');
    for (const file of [es, en]) {
      const names = file.emotions as Record<string, string>;
      expect(EMOTIONS.filter((emotion) => !names[emotion])).toEqual([]);
    }
  });

  it('has no empty texts', () => {
    for (const [name, file] of [
      ['es', es],
      ['en', en],
    ] as const) {
      const empty = keys(file).filter((k) => {
        const value = k.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown>)[part], file);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty, name).toEqual([]);
    }
  });

  it('local keys do not shadow the protocol error codes merged under errors.*', () => {
    const codes = Object.keys(ERROR_MESSAGES.es);
    expect(Object.keys(es.errors).filter((k) => codes.includes(k))).toEqual([]);
  });
});

describe('language detection (spec §1)', () => {
  it('is Spanish when nothing points elsewhere (unsupported browser language)', () => {
    const i18n = fresh(['fr-FR']);
    expect(i18n.language).toBe('es');
    expect(i18n.t('chat.send')).toBe('Enviar');
    expect(document.documentElement.lang).toBe('es');
  });

  it('follows the browser language when it is supported', () => {
    const i18n = fresh(['en-US', 'en']);
    expect(i18n.language).toBe('en');
    expect(i18n.t('chat.send')).toBe('Send');
  });

  it('a stored preference (preferredLanguage) wins over the browser', () => {
    localStorage.setItem('preferredLanguage', 'es');
    const i18n = fresh(['en-US']);
    expect(i18n.language).toBe('es');
  });

  it('caches a change in local storage and keeps <html lang> in sync', async () => {
    const i18n = fresh(['es-ES']);
    await i18n.changeLanguage('en');
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('falls back to English for a key missing in Spanish', () => {
    const i18n = fresh(['es-ES']);
    i18n.addResource('en', 'translation', 'onlyInEnglish', 'English text');
    // A key outside the typed resources, added at runtime to English only.
    const untyped = i18n.t.bind(i18n) as unknown as (key: string) => string;
    expect(untyped('onlyInEnglish')).toBe('English text');
  });

  it('maps detected codes to a supported language', () => {
    expect(toSupportedLanguage('en-GB')).toBe('en');
    expect(toSupportedLanguage('es_MX')).toBe('es');
    expect(toSupportedLanguage('pt-BR')).toBe('es');
    expect(toSupportedLanguage(undefined)).toBe('es');
  });
});

describe('one language at a time, in two parts (issue 12: a lean first screen)', () => {
  it('loads only the language it is asked for, with the protocol texts, once', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    const i18n = createI18n(i18next.createInstance());
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
    await loadLanguage('en', TEXT_PARTS, i18n);
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('es', 'translation')).toBe(false);
    expect(i18n.t('chat.send')).toBe('Send');
    expect(i18n.t('errors.limit_reached')).toBe(ERROR_MESSAGES.en.limit_reached);
    await loadLanguage('es', TEXT_PARTS, i18n);
    await i18n.changeLanguage('es');
    expect(i18n.t('chat.send')).toBe('Enviar');
  });

  it("the shell part has the frame's sections and the protocol texts; each screen's part its own", async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-ES']);
    const i18n = createI18n(i18next.createInstance());
    await loadLanguage('es', ['shell'], i18n);
    expect(i18n.t('app.loading')).toBe(es.app.loading);
    expect(i18n.t('errors.invalid_credentials')).toBe(ERROR_MESSAGES.es.invalid_credentials);
    expect(i18n.t('validation.emailInvalid')).toBe(FIELD_MESSAGES.es.emailInvalid);
    expect(i18n.exists('auth.login.title')).toBe(false);
    expect(i18n.exists('landing.hero.title')).toBe(false);
    expect(i18n.exists('chat.send')).toBe(false);
    await loadLanguage('es', ['auth'], i18n);
    expect(i18n.t('auth.login.title')).toBe(es.auth.login.title);
    expect(i18n.exists('landing.hero.title')).toBe(false);
    await loadLanguage('es', ['rest'], i18n);
    expect(i18n.t('chat.send')).toBe('Enviar');
    expect(i18n.t('auth.login.title')).toBe(es.auth.login.title);
  });

  it('the parts together are the whole file, in both languages', async () => {
    for (const [language, file] of [
      ['es', es],
      ['en', en],
    ] as const) {
      const i18n = createI18n(i18next.createInstance());
      await loadLanguage(language, ['shell', 'landing', 'auth'], i18n);
      const first = keys(i18n.getResourceBundle(language, 'translation'));
      await loadLanguage(language, ['rest'], i18n);
      const all = keys(i18n.getResourceBundle(language, 'translation'));
      expect(
        keys(file).filter((k) => !all.includes(k)),
        language,
      ).toEqual([]);
      expect(first.length, language).toBeLessThan(all.length / 2);
    }
  });
});

describe('protocol texts', () => {
  it('merges ERROR_MESSAGES under errors.* and FIELD_MESSAGES under validation.*', () => {
    const i18n = fresh(['es-ES']);
    expect(i18n.t('errors.limit_reached')).toBe('Has alcanzado el límite de mensajes de tu plan.');
    expect(i18n.t('validation.emailInvalid')).toBe(FIELD_MESSAGES.es.emailInvalid);
    expect(i18n.t('errors.connectionFailed')).toBe(
      'No se puede conectar con el servidor. Verifica tu conexión a internet.',
    );
    void i18n.changeLanguage('en');
    expect(i18n.t('errors.limit_reached')).toBe(ERROR_MESSAGES.en.limit_reached);
    expect(i18n.t('validation.passwordMismatch')).toBe('Passwords do not match');
    expect(i18n.t('errors.connectionFailed')).toBe(
      'Cannot connect to server. Please check your internet connection.',
    );
  });
});
