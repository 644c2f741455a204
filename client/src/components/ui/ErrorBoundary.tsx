import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Catches render errors and offers reload and retry (spec §2, chat screen error boundary). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <CrashScreen onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}

function CrashScreen({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <main className="center-page" role="alert">
      <div className="card card--narrow">
        <h1 className="card__title">{t('app.crashTitle')}</h1>
        <p>{t('app.crashText')}</p>
        <div className="button-row">
          <button type="button" className="button button--ghost" onClick={onRetry}>
            {t('common.retry')}
          </button>
          <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
            {t('app.reload')}
          </button>
        </div>
      </div>
    </main>
  );
}
