import { useTranslation } from 'react-i18next';
import { gltfIssueText, type CompatibilityReport as Report } from '@alma/protocol';

/**
 * What a custom avatar can do, from its processing report (SPEC.md AU-3): score, works, missing;
 * then what processing did to it (AU-12): what it repaired, animations removed, extensions kept.
 */
export function CompatibilityReport({ report }: { report: Report }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en' ? 'en' : 'es';
  const notes = [
    ...(report.repaired ?? []).map((r) =>
      t('avatarUpload.repaired', { what: gltfIssueText(language, r.code) ?? r.code, count: r.count }),
    ),
    ...(report.removedAnimations
      ? [t('avatarUpload.animationsRemoved', { count: report.removedAnimations })]
      : []),
    ...(report.extensions?.length
      ? [t('avatarUpload.extensionsKept', { names: report.extensions.join(', ') })]
      : []),
  ];
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
      {notes.length ? (
        <ul className="compat__notes" aria-label={t('avatarUpload.processingLabel')}>
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
