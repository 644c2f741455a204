import { useTranslation } from 'react-i18next';
import {
  AVATAR_REPORT_WARNINGS,
  gltfIssueText,
  type AvatarReportWarning,
  type CompatibilityReport as Report,
} from '@alma/protocol';

const isWarning = (code: string): code is AvatarReportWarning =>
  (AVATAR_REPORT_WARNINGS as readonly string[]).includes(code);

/** The report's warnings worth a line: a static mesh's one line says what its parts would. */
export function shownWarnings(warnings: readonly string[]): AvatarReportWarning[] {
  const known = warnings.filter(isWarning);
  return known.includes('static_mesh')
    ? known.filter((w) => w !== 'no_skeleton' && w !== 'no_lip_sync')
    : known;
}

/**
 * What a custom avatar can do, from its processing report (SPEC.md AU-3): score, what it cannot
 * do in plain words (AU-14: a static mesh cannot speak or gesture), works, missing; then what
 * processing did to it (AU-12): what it repaired, animations removed, extensions kept.
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
  const warnings = shownWarnings(report.warnings);
  return (
    <div className="compat">
      <p className="compat__score">
        <meter min={0} max={100} low={50} high={80} optimum={100} value={report.score} aria-hidden="true" />
        <span>{t('avatarUpload.score', { score: report.score })}</span>
      </p>
      {warnings.length ? (
        <ul className="compat__notes compat__warnings" aria-label={t('avatarUpload.warningsLabel')}>
          {warnings.map((w) => (
            <li key={w}>{t(`avatarUpload.warnings.${w}`)}</li>
          ))}
        </ul>
      ) : null}
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
