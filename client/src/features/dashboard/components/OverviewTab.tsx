import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { useUsage } from '../../../lib/usage.ts';
import { effectivePlan } from '../plan.ts';
import { useDashboard } from '../store.ts';
import { Card } from './Card.tsx';
import { UsageBar } from './UsageBar.tsx';

export type GoTo = (tab: 'profile' | 'subscription' | 'usage' | 'preferences') => void;

/** Account, current plan, this month's messages and voice minutes, limits, quick actions. */
export function OverviewTab({ onGo }: { onGo: GoTo }) {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const { avatar } = usePreferencesOf(user?.id);
  const limits = useDashboard((s) => s.limits);
  const loadLimits = useDashboard((s) => s.loadLimits);
  const summary = useUsage((s) => s.summary);
  const userId = user?.id;

  useEffect(() => {
    if (userId) void loadLimits(userId);
    useUsage
      .getState()
      .load()
      .catch(() => undefined);
  }, [userId, loadLimits]);

  if (!user) return null;
  const plan = effectivePlan(limits?.subscription.plan ?? summary?.plan ?? user.plan, user.plan);
  const since = new Date(user.createdAt);
  const sub = limits?.subscription;

  return (
    <div className="card-grid">
      <Card title={t('dashboard.overview.account')}>
        <div className="account">
          <AvatarBadge id={avatar} size={56} />
          <div>
            <p className="account__name">{user.name}</p>
            <p className="account__email">{user.email}</p>
            {!Number.isNaN(since.getTime()) ? (
              <p className="muted">
                {t('dashboard.overview.memberSince', { date: since.toLocaleDateString(i18n.language) })}
              </p>
            ) : null}
          </div>
        </div>
      </Card>
      <Card title={t('dashboard.overview.plan')}>
        <p className="plan-name" data-testid="current-plan">
          {t(`dashboard.plans.${plan}`)}
        </p>
        <p className="muted">{t('dashboard.overview.resets')}</p>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => onGo('subscription')}
        >
          {t('dashboard.overview.seeSubscription')}
        </button>
      </Card>
      {plan !== 'enterprise' ? (
        <Card title={t('dashboard.overview.monthly')} className="card--wide">
          {summary ? (
            <>
              <UsageBar
                label={t('dashboard.overview.messages')}
                used={summary.usage.messagesThisMonth}
                limit={summary.limits.messages}
                limitLabel={summary.messagesLimitLabel}
              />
              <UsageBar
                label={t('dashboard.overview.voiceMinutes')}
                used={summary.usage.voiceMinutesThisMonth}
                limit={summary.limits.voiceMinutes}
              />
            </>
          ) : (
            <p className="muted">{t('dashboard.usage.loading')}</p>
          )}
        </Card>
      ) : null}
      <Card title={t('dashboard.overview.limits')}>
        {limits?.error ? (
          <p className="alert alert--error" role="alert">
            {limits.error}
          </p>
        ) : null}
        {sub ? (
          <dl className="facts">
            <div>
              <dt>{t('dashboard.overview.storage')}</dt>
              <dd>
                {sub.formatted.totalStorage} / {sub.formatted.maxTotalStorage}
              </dd>
            </div>
            <div>
              <dt>{t('dashboard.overview.avatarSlots')}</dt>
              <dd>{sub.formatted.avatarSlotsUsed}</dd>
            </div>
            <div>
              <dt>{t('dashboard.overview.voiceSlots')}</dt>
              <dd>{sub.formatted.voiceSlotsUsed}</dd>
            </div>
            <div>
              <dt>{t('dashboard.overview.maxFile')}</dt>
              <dd>
                {sub.formatted.maxAvatarFileSize} · {sub.formatted.maxVoiceFileSize}
              </dd>
            </div>
          </dl>
        ) : (
          <p className="muted">{t('dashboard.usage.loading')}</p>
        )}
      </Card>
      <Card title={t('dashboard.overview.quickActions')}>
        <div className="button-row">
          <Link to="/chat" className="button button--primary">
            {t('dashboard.goToChat')}
          </Link>
          <button type="button" className="button button--ghost" onClick={() => onGo('profile')}>
            {t('dashboard.overview.editProfile')}
          </button>
          <button type="button" className="button button--ghost" onClick={() => onGo('usage')}>
            {t('dashboard.overview.seeUsage')}
          </button>
          <button type="button" className="button button--ghost" onClick={() => onGo('preferences')}>
            {t('dashboard.overview.choosePreferences')}
          </button>
        </div>
      </Card>
    </div>
  );
}
