import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { routes, THEMES, type Language, type Theme } from '@alma/protocol';
import { AvatarBadge } from '../../components/ui/AvatarBadge.tsx';
import { Icon, type IconName } from '../../components/ui/Icon.tsx';
import { Checkbox, TextField } from '../../components/ui/Field.tsx';
import { LanguageToggle } from '../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { currentLanguage, setLanguage } from '../../lib/i18n.ts';
import { logout } from '../../lib/logout.ts';
import { usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { useTheme } from '../../lib/theme.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const TABS = ['overview', 'profile', 'subscription', 'usage', 'preferences'] as const;
type Tab = (typeof TABS)[number];
const TAB_ICONS: Record<Tab, IconName> = {
  overview: 'grid',
  profile: 'user',
  subscription: 'card',
  usage: 'bars',
  preferences: 'sliders',
};

function isTab(value: string | null): value is Tab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/**
 * Account management (spec §2 Dashboard). Profile editing, usage counters and payments have no
 * server routes yet: they show what is known and say plainly what is not available.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.title'));
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: Tab = isTab(params.get('tab')) ? (params.get('tab') as Tab) : 'overview';
  const [collapsed, setCollapsed] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const user = useSession((s) => s.user);

  useEffect(() => {
    const controller = new AbortController();
    call(routes.auth.me, {}, { signal: controller.signal })
      .then(({ user: fresh }) => {
        useSession.getState().setUser(fresh);
        setLoadError(null);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(error instanceof ApiError ? error.displayMessage : t('dashboard.loadError'));
      });
    return () => controller.abort();
  }, [t]);

  if (!user) return null;

  function selectTab(next: Tab) {
    setParams(next === 'overview' ? {} : { tab: next }, { replace: true });
  }

  function onTabKey(event: KeyboardEvent, index: number) {
    const delta =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? 1
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? -1
          : 0;
    if (!delta) return;
    event.preventDefault();
    const next = TABS[(index + delta + TABS.length) % TABS.length] ?? 'overview';
    selectTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  }

  return (
    <div className={`dashboard ${collapsed ? 'dashboard--collapsed' : ''}`}>
      <header className="topbar">
        <Logo />
        <div className="topbar__actions">
          <LanguageToggle />
          <ThemeToggle />
          <Link to="/chat" className="button button--primary button--small">
            <Icon name="chat" size={16} />
            <span className="button__label">{t('dashboard.goToChat')}</span>
          </Link>
          <button
            type="button"
            className="icon-button"
            aria-label={t('nav.logout')}
            title={t('nav.logout')}
            onClick={() => {
              // Leave the guarded page first, then clear (see ChatPage).
              void Promise.resolve(navigate('/', { replace: true })).then(logout);
            }}
          >
            <Icon name="logout" />
          </button>
        </div>
      </header>
      <div className="dashboard__body">
        <nav className="dashboard__nav" aria-label={t('dashboard.sections')}>
          <button
            type="button"
            className="icon-button dashboard__collapse"
            onClick={() => setCollapsed((c) => !c)}
            aria-expanded={!collapsed}
            aria-label={collapsed ? t('dashboard.expand') : t('dashboard.collapse')}
          >
            <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} size={18} />
          </button>
          <div role="tablist" aria-orientation="vertical" className="dashboard__tabs">
            {TABS.map((name, index) => (
              <button
                key={name}
                id={`tab-${name}`}
                type="button"
                role="tab"
                aria-selected={tab === name}
                aria-controls={`panel-${name}`}
                tabIndex={tab === name ? 0 : -1}
                className="dashboard__tab"
                onClick={() => selectTab(name)}
                onKeyDown={(e) => onTabKey(e, index)}
                title={t(`dashboard.tabs.${name}`)}
              >
                <Icon name={TAB_ICONS[name]} size={18} />
                <span className="dashboard__tab-label">{t(`dashboard.tabs.${name}`)}</span>
              </button>
            ))}
          </div>
        </nav>
        <main id="main" className="dashboard__main">
          <h1 className="dashboard__title">{t('dashboard.greeting', { name: user.name })}</h1>
          {loadError ? (
            <div className="alert alert--error" role="alert">
              {loadError}
            </div>
          ) : null}
          <section
            id={`panel-${tab}`}
            role="tabpanel"
            aria-labelledby={`tab-${tab}`}
            className="dashboard__panel"
            tabIndex={0}
          >
            {tab === 'overview' ? <Overview onGo={selectTab} /> : null}
            {tab === 'profile' ? <Profile /> : null}
            {tab === 'subscription' ? <Subscription /> : null}
            {tab === 'usage' ? <Usage /> : null}
            {tab === 'preferences' ? <Preferences /> : null}
          </section>
        </main>
      </div>
    </div>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card">
      <h2 className="card__title">{title}</h2>
      {children}
    </section>
  );
}

function MaintenanceBanner() {
  const { t } = useTranslation();
  return (
    <div className="banner banner--info" role="note">
      <p>{t('dashboard.maintenance')}</p>
    </div>
  );
}

function Overview({ onGo }: { onGo: (tab: Tab) => void }) {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const { avatar } = usePreferencesOf(user?.id);
  if (!user) return null;
  const since = new Date(user.createdAt);
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
        <p className="plan-name">{t(`dashboard.plans.${user.plan}`)}</p>
        <p className="muted">{t('dashboard.overview.resets')}</p>
      </Card>
      {user.plan !== 'enterprise' ? (
        <>
          <Card title={t('dashboard.overview.messages')}>
            <p className="muted">{t('dashboard.overview.usagePending')}</p>
          </Card>
          <Card title={t('dashboard.overview.voiceMinutes')}>
            <p className="muted">{t('dashboard.overview.usagePending')}</p>
          </Card>
        </>
      ) : null}
      <Card title={t('dashboard.overview.quickActions')}>
        <div className="button-row">
          <Link to="/chat" className="button button--primary">
            {t('dashboard.goToChat')}
          </Link>
          <button type="button" className="button button--ghost" onClick={() => onGo('profile')}>
            {t('dashboard.overview.editProfile')}
          </button>
          <button type="button" className="button button--ghost" onClick={() => onGo('preferences')}>
            {t('dashboard.overview.choosePreferences')}
          </button>
        </div>
      </Card>
    </div>
  );
}

function Profile() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  if (!user) return null;
  return (
    <Card title={t('dashboard.tabs.profile')}>
      <p className="alert alert--info">{t('dashboard.profile.editSoon')}</p>
      <form className="form" onSubmit={(e) => e.preventDefault()}>
        <TextField label={t('dashboard.profile.name')} value={user.name} readOnly />
        <TextField
          label={t('dashboard.profile.email')}
          value={user.email}
          readOnly
          hint={t('dashboard.profile.emailReadOnly')}
        />
        <div className="field">
          <label className="field__label" htmlFor="profile-bio">
            {t('dashboard.profile.bio')}
          </label>
          <textarea
            id="profile-bio"
            className="field__input"
            rows={3}
            value={user.bio}
            placeholder={t('dashboard.profile.bioPlaceholder')}
            readOnly
          />
        </div>
        <p className="muted">
          {t('dashboard.profile.role')}: {t(`dashboard.profile.roles.${user.role}`)}
        </p>
        <button type="submit" className="button button--primary" disabled>
          {t('dashboard.profile.save')}
        </button>
      </form>
    </Card>
  );
}

function Subscription() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  if (!user) return null;
  return (
    <Card title={t('dashboard.tabs.subscription')}>
      <MaintenanceBanner />
      <dl className="facts">
        <div>
          <dt>{t('dashboard.subscription.current')}</dt>
          <dd>{t(`dashboard.plans.${user.plan}`)}</dd>
        </div>
        <div>
          <dt>{t('dashboard.subscription.status')}</dt>
          <dd>{t('dashboard.subscription.active')}</dd>
        </div>
      </dl>
      {user.plan === 'free' ? <p className="muted">{t('dashboard.subscription.freeNote')}</p> : null}
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

function Usage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  if (!user) return null;
  const rows = [t('dashboard.usage.messages'), t('dashboard.usage.voiceMinutes')];
  return (
    <Card title={t('dashboard.tabs.usage')}>
      {rows.map((label) => (
        <div key={label} className="usage-row">
          <div className="usage-row__head">
            <span>{label}</span>
            <span className="muted">{t('dashboard.usage.noData')}</span>
          </div>
          <div className="meter" aria-hidden="true">
            <span className="meter__fill" style={{ width: '0%' }} />
          </div>
        </div>
      ))}
      <p className="muted">{t('dashboard.overview.usagePending')}</p>
      <p className="muted">{t('dashboard.overview.resets')}</p>
      {user.role === 'admin' ? (
        <button type="button" className="button button--ghost" disabled>
          {t('dashboard.usage.reset')}
        </button>
      ) : null}
    </Card>
  );
}

function Preferences() {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const theme = useTheme((s) => s.theme);
  const setTheme = useTheme((s) => s.setTheme);
  if (!user) return null;
  return (
    <Card title={t('dashboard.tabs.preferences')}>
      <form className="form" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label className="field__label" htmlFor="pref-language">
            {t('dashboard.preferences.language')}
          </label>
          <select
            id="pref-language"
            className="field__input"
            value={currentLanguage(i18n)}
            onChange={(e) => void setLanguage(e.target.value as Language)}
          >
            <option value="es">{t('common.languages.es')}</option>
            <option value="en">{t('common.languages.en')}</option>
          </select>
        </div>
        <fieldset className="field">
          <legend className="field__label">{t('dashboard.preferences.theme')}</legend>
          <div className="segmented">
            {THEMES.map((option: Theme) => (
              <label key={option} className="segmented__item segmented__item--radio">
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={theme === option}
                  onChange={() => setTheme(option)}
                />
                {t(`common.themes.${option}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <Checkbox
          label={t('dashboard.preferences.emailNotifications')}
          checked={user.emailNotifications}
          disabled
          readOnly
        />
        <Checkbox
          label={t('dashboard.preferences.pushNotifications')}
          checked={user.pushNotifications}
          disabled
          readOnly
        />
        <p className="muted">{t('dashboard.preferences.notificationsSoon')}</p>
      </form>
    </Card>
  );
}
