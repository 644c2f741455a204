import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { LegalLayout } from './LegalLayout.tsx';

const SECTIONS = ['s1', 's2', 's3', 's4', 's5', 's6'] as const;
/** The date these texts were last changed; update with the text. */
const UPDATED = '2025-01-15';

export function LegalDocument({ doc }: { doc: 'terms' | 'privacy' }) {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t(`legal.${doc}.title`));
  return (
    <LegalLayout>
      <h1>{t(`legal.${doc}.title`)}</h1>
      <p className="muted">
        {t('legal.updated', {
          date: new Date(UPDATED).toLocaleDateString(i18n.language, { dateStyle: 'long' }),
        })}
      </p>
      <p className="lead">{t(`legal.${doc}.intro`)}</p>
      {SECTIONS.map((s) => (
        <section key={s}>
          <h2>{t(`legal.${doc}.${s}Title`)}</h2>
          <p>{t(`legal.${doc}.${s}Text`)}</p>
        </section>
      ))}
    </LegalLayout>
  );
}
