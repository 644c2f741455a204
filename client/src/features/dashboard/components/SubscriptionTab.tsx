import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session.ts';
import { effectivePlan } from '../plan.ts';
import { useDashboard } from '../store.ts';
import { Card } from './Card.tsx';

/**
 * The subscription (GET /api/payment/subscription). Payments are in maintenance (spec §1): the
 * actions are shown but disabled, and a banner says why.
 */
export function SubscriptionTab() {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const subscription = useDashboard((s) => s.subscription);
  const failure = useDashboard((s) => s.subscriptionError);
  const load = useDashboard((s) => s.loadSubscription);

  useEffect(() => {
    void load();
  }, [load]);

  if (!user) return null;
  const plan = effectivePlan(subscription?.plan ?? user.plan, user.plan);
  const end = subscription?.currentPeriodEnd ? new Date(subscription.currentPeriodEnd) : null;
  const endText = end && !Number.isNaN(end.getTime()) ? end.toLocaleDateString(i18n.language) : null;
  const status = !subscription
    ? null
    : subscription.isCanceled
      ? t('dashboard.subscription.canceled')
      : subscription.isActive || plan === 'free'
        ? t('dashboard.subscription.active')
        : t('dashboard.subscription.inactive');

  return (
    <Card title={t('dashboard.tabs.subscription')}>
      <div className="banner banner--info" role="note">
        <p>{t('errors.payments_maintenance')}</p>
      </div>
      {failure ? (
        <p className="alert alert--error" role="alert">
          {failure}
        </p>
      ) : null}
      {subscription?.isCanceled ? (
        <p className="alert alert--warning" role="status">
          {endText
            ? t('dashboard.subscription.canceledNotice', { date: endText })
            : t('dashboard.subscription.canceledNoticeNoDate')}
        </p>
      ) : null}
      <dl className="facts">
        <div>
          <dt>{t('dashboard.subscription.current')}</dt>
          <dd data-testid="subscription-plan">{t(`dashboard.plans.${plan}`)}</dd>
        </div>
        <div>
          <dt>{t('dashboard.subscription.status')}</dt>
          <dd>{status ?? '…'}</dd>
        </div>
        {endText && plan !== 'free' ? (
          <div>
            <dt>
              {subscription?.isCanceled
                ? t('dashboard.subscription.endsOn')
                : t('dashboard.subscription.renewsOn')}
            </dt>
            <dd>{endText}</dd>
          </div>
        ) : null}
      </dl>
      {plan === 'free' ? <p className="muted">{t('dashboard.subscription.freeNote')}</p> : null}
      <div className="button-row">
        <button type="button" className="button button--primary" disabled>
          {t('dashboard.subscription.upgrade')}
        </button>
        <button type="button" className="button button--ghost" disabled>
          {t('dashboard.subscription.manage')}
        </button>
        <button type="button" className="button button--ghost" disabled>
          {t('dashboard.subscription.cancel')}
        </button>
        <button type="button" className="button button--ghost" disabled>
          {t('dashboard.subscription.reactivate')}
        </button>
      </div>
    </Card>
  );
}
