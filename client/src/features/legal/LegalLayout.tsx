import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FooterNav } from '../../components/ui/FooterNav.tsx';
import { PageShell } from '../../components/ui/PageShell.tsx';
import './legal.css';

export function LegalLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageShell className="legal-page">
      <main id="main" className="prose">
        {children}
        <p>
          <Link to="/" className="link">
            {t('common.goHome')}
          </Link>
        </p>
      </main>
      <footer className="footer footer--compact">
        <FooterNav />
      </footer>
    </PageShell>
  );
}
