import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { LegalLayout } from './LegalLayout.tsx';

/** Target of the Enterprise plan button (spec §2); paid plans are in maintenance. */
export function ContactPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('contact.title'));
  return (
    <LegalLayout>
      <h1>{t('contact.title')}</h1>
      <p className="lead">{t('contact.intro')}</p>
      <section className="card">
        <h2 className="card__title">{t('contact.enterpriseTitle')}</h2>
        <p>{t('contact.enterpriseText')}</p>
        <p className="alert alert--info">{t('contact.maintenance')}</p>
        <Link to="/register" className="button button--primary">
          {t('contact.startFree')}
        </Link>
      </section>
      <section className="card">
        <h2 className="card__title">{t('contact.supportTitle')}</h2>
        <p>{t('contact.supportText')}</p>
        <Link to="/dashboard" className="link">
          {t('nav.dashboard')}
        </Link>
      </section>
    </LegalLayout>
  );
}
