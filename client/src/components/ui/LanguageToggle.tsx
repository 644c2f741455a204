import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage } from '../../lib/i18n.ts';
import {
  chooseLanguage,
  isListedLanguage,
  LISTED_LANGUAGES,
  shownLanguage,
  useLanguageChoice,
} from '../../lib/settings.ts';

/**
 * The language picker of spec §1: ES, EN, FR, DE, IT, PT. Only Spanish and English have an
 * interface; another pick shows English and a short note says so.
 */
export function LanguageToggle({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const noteId = `${id}-note`;
  const stored = useLanguageChoice((s) => s.stored);
  const shown = shownLanguage(stored, currentLanguage(i18n));
  const fallback = !isLanguage(shown);
  return (
    <div className={`language-toggle ${className}`}>
      <label className="visually-hidden" htmlFor={id}>
        {t('common.languageToggle')}
      </label>
      <select
        id={id}
        className="language-toggle__select"
        value={shown}
        aria-describedby={fallback ? noteId : undefined}
        onChange={(e) => {
          const code = e.target.value;
          // Saving to the account is best effort here; the dashboard reports failures.
          if (isListedLanguage(code)) chooseLanguage(code).catch(() => undefined);
        }}
      >
        {LISTED_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code} title={t(`common.languages.${code}`)}>
            {code.toUpperCase()}
          </option>
        ))}
      </select>
      {fallback ? (
        <span className="language-toggle__note" id={noteId}>
          {t('common.languageFallback', { code: shown.toUpperCase() })}
        </span>
      ) : null}
    </div>
  );
}
