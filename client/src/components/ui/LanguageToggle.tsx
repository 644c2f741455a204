import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@alma/protocol';
import { currentLanguage, setLanguage } from '../../lib/i18n.ts';

/** ES / EN switch (spec §1); the choice is cached in local storage by the i18n detector. */
export function LanguageToggle({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const active = currentLanguage(i18n);
  return (
    <div className={`segmented ${className}`} role="group" aria-label={t('common.languageToggle')}>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          className="segmented__item"
          aria-pressed={active === lng}
          lang={lng}
          title={t(`common.languages.${lng}`)}
          onClick={() => void setLanguage(lng)}
        >
          {lng.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
