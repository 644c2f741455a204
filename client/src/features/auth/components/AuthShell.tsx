import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '../../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../../components/ui/ThemeToggle.tsx';

/** The frame of the sign-in screens: top bar with language and theme, a centred card. */
export function AuthShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        <Logo />
        <div className="topbar__actions">
          <LanguageToggle />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="auth-page__main">
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}
