import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LanguageToggle } from '../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';

export function LegalLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="legal-page">
      <header className="topbar">
        <Logo />
        <div className="topbar__actions">
          <LanguageToggle />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="prose">
        {children}
        <p>
          <Link to="/" className="link">
            {t('common.goHome')}
          </Link>
        </p>
      </main>
      <footer className="footer footer--compact">
        <nav aria-label={t('nav.footer')}>
          <ul className="footer__links">
            <li>
              <Link to="/terms">{t('nav.terms')}</Link>
            </li>
            <li>
              <Link to="/privacy">{t('nav.privacy')}</Link>
            </li>
            <li>
              <Link to="/contact">{t('nav.contact')}</Link>
            </li>
          </ul>
        </nav>
      </footer>
    </div>
  );
}
