import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api.ts';
import { subscriptionLimits } from '../../../lib/limits.ts';
import { useSession } from '../../../lib/session.ts';
import { useUsage } from '../../../lib/usage.ts';
import { Card } from './Card.tsx';
import { UsageBar } from './UsageBar.tsx';

type ResetStatus =
  { kind: 'idle' } | { kind: 'working' } | { kind: 'done' } | { kind: 'error'; message: string };

/** This month's messages and voice minutes (GET /auth/me/usage); admins may reset them. */
export function UsageTab() {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const summary = useUsage((s) => s.summary);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reset, setReset] = useState<ResetStatus>({ kind: 'idle' });

  useEffect(() => {
    const controller = new AbortController();
    useUsage
      .getState()
      .load(controller.signal)
      .then(() => setLoadError(null))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoadError(errorText(error, t('errors.general')));
      });
    return () => controller.abort();
  }, [t]);

  if (!user) return null;
  const resetsAt = summary ? new Date(summary.usage.resetsAt) : null;

  async function onReset() {
    setReset({ kind: 'working' });
    try {
      await useUsage.getState().reset();
      subscriptionLimits.invalidate();
      setReset({ kind: 'done' });
    } catch (error) {
      setReset({ kind: 'error', message: errorText(error, t('errors.general')) });
    }
  }

  return (
    <Card title={t('dashboard.tabs.usage')}>
      {loadError ? (
        <p className="alert alert--error" role="alert">
          {loadError}
        </p>
      ) : null}
      {summary ? (
        <>
          <UsageBar
            label={t('dashboard.usage.messages')}
            used={summary.usage.messagesThisMonth}
            limit={summary.limits.messages}
            limitLabel={summary.messagesLimitLabel}
          />
          <UsageBar
            label={t('dashboard.usage.voiceMinutes')}
            used={summary.usage.voiceMinutesThisMonth}
            limit={summary.limits.voiceMinutes}
          />
          <p className="muted">
            {resetsAt && !Number.isNaN(resetsAt.getTime())
              ? t('dashboard.usage.resetsOn', { date: resetsAt.toLocaleDateString(i18n.language) })
              : t('dashboard.overview.resets')}
          </p>
        </>
      ) : !loadError ? (
        <p className="muted">{t('dashboard.usage.loading')}</p>
      ) : null}
      {user.role === 'admin' ? (
        <div className="admin-box">
          <p className="muted">{t('dashboard.usage.adminOnly')}</p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void onReset()}
            disabled={reset.kind === 'working'}
            aria-busy={reset.kind === 'working'}
          >
            {t('dashboard.usage.reset')}
          </button>
          <div aria-live="polite">
            {reset.kind === 'done' ? (
              <p className="alert alert--success" role="status">
                {t('dashboard.usage.resetDone')}
              </p>
            ) : null}
            {reset.kind === 'error' ? (
              <p className="alert alert--error" role="alert">
                {reset.message}
              </p>
            ) : null}
          </div>
        </div>
      ) : null}
    </Card>
  );
}
