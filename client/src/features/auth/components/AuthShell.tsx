import type { ReactNode } from 'react';
import { PageShell } from '../../../components/ui/PageShell.tsx';
import '../auth.css';

/** The frame of the sign-in screens: top bar with language and theme, a centred card. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <PageShell className="auth-page" skipLink>
      <main id="main" className="auth-page__main">
        <div className="auth-card">{children}</div>
      </main>
    </PageShell>
  );
}
