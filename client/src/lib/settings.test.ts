import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testUser } from '../test/fixtures.ts';
import { stubFetch } from '../test/fetch.ts';
import { i18n } from './i18n.ts';
import { useSession } from './session.ts';
import {
  chooseLanguage,
  interfaceLanguageFor,
  LISTED_LANGUAGES,
  shownLanguage,
  useLanguageChoice,
} from './settings.ts';

beforeEach(async () => {
  localStorage.clear();
  useSession.getState().clear();
  useLanguageChoice.setState({ stored: null });
  await i18n.changeLanguage('es');
});

afterEach(() => vi.unstubAllGlobals());

describe('language picker (spec §1)', () => {
  it('lists ES, EN, FR, DE, IT, PT', () => {
    expect(LISTED_LANGUAGES).toEqual(['es', 'en', 'fr', 'de', 'it', 'pt']);
  });

  it('only es and en have an interface; the others fall back to English', () => {
    expect(interfaceLanguageFor('es')).toBe('es');
    expect(interfaceLanguageFor('en')).toBe('en');
    for (const code of ['fr', 'de', 'it', 'pt'] as const) expect(interfaceLanguageFor(code)).toBe('en');
  });

  it('shows the stored pick while it explains the interface, else the interface language', () => {
    expect(shownLanguage('fr', 'en')).toBe('fr');
    expect(shownLanguage('fr', 'es')).toBe('es');
    expect(shownLanguage(null, 'en')).toBe('en');
    expect(shownLanguage('xx', 'es')).toBe('es');
  });

  it('picking FR shows English and remembers FR; signed out, nothing is sent', async () => {
    const calls = stubFetch(() => undefined);
    await chooseLanguage('fr');
    expect(i18n.language).toBe('en');
    expect(localStorage.getItem('languageChoice')).toBe('fr');
    expect(localStorage.getItem('preferredLanguage')).toBe('en');
    expect(calls).toEqual([]);
  });

  it('signed in, es / en also become the account language; FR does not', async () => {
    useSession.getState().setSession({ token: 't', refreshToken: 'r', user: testUser });
    const calls = stubFetch(({ method, path, body }) =>
      method === 'PUT' && path === '/auth/updatedetails'
        ? { body: { success: true, user: { ...testUser, ...(body as object) } } }
        : undefined,
    );
    await chooseLanguage('fr');
    expect(calls).toEqual([]);
    await chooseLanguage('en');
    expect(calls).toEqual([{ method: 'PUT', path: '/auth/updatedetails', body: { language: 'en' } }]);
    expect(useSession.getState().user?.language).toBe('en');
  });
});
