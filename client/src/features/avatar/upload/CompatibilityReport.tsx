import { useTranslation } from 'react-i18next';
import type { CompatibilityReport as Report } from '@alma/protocol';

/** What a custom avatar can do, from its processing report (SPEC.md AU-3): score, works, missing. */
export function CompatibilityReport({ report }: { report: Report }) {
  const { t } = useTranslation();
  return (
    <div className="compat">
      <p className="compat__score">
        <meter min={0} max={100} low={50} high={80} optimum={100} value={report.score} aria-hidden="true" />
        <span>{t('avatarUpload.score', { score: report.score })}</span>
      </p>
      <ul className="compat__list" aria-label={t('avatarUpload.reportLabel')}>
        {report.capabilities.map((c) => (
          <li
            key={c.id}
            className={c.works ? 'compat__item compat__item--ok' : 'compat__item compat__item--missing'}
          >
            <span aria-hidden="true">{c.works ? '✓' : '–'}</span>
            <span>
              {t(`avatarUpload.capabilities.${c.id}`)}
              <span className="visually-hidden">
                {' '}
                {c.works ? t('avatarUpload.works') : t('avatarUpload.missing')}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
