import { StrictMode, Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ErrorBoundary } from '../components/ui/ErrorBoundary.tsx';
import { PageLoader } from '../components/ui/Spinner.tsx';
import { i18n } from '../lib/i18n.ts';
import { useAuthBootstrap } from './bootstrap.ts';

function Bootstrap({ children }: { children: ReactNode }) {
  useAuthBootstrap();
  return children;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ErrorBoundary>
          <Suspense fallback={<PageLoader label={i18n.t('app.loading')} />}>
            <Bootstrap>{children}</Bootstrap>
          </Suspense>
        </ErrorBoundary>
      </I18nextProvider>
    </StrictMode>
  );
}
