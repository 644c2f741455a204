import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { routes } from '@alma/protocol';
import { Icon, type IconName } from '../../components/ui/Icon.tsx';
import { IconButton } from '../../components/ui/IconButton.tsx';
import { TopBar } from '../../components/ui/TopBar.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { logoutToLanding } from '../../lib/logout.ts';
import { useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { OverviewTab } from './components/OverviewTab.tsx';
import { PreferencesTab } from './components/PreferencesTab.tsx';
import { ProfileTab } from './components/ProfileTab.tsx';
import { SubscriptionTab } from './components/SubscriptionTab.tsx';
import { UsageTab } from './components/UsageTab.tsx';
import './dashboard.css';

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
 * Account management (spec §2 Dashboard): a collapsible sidebar of tabs (the tab is in the
 * address, ?tab=…, so a reload keeps it), a go-to-chat button, and one panel per tab.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.title'));
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'overview';
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
    let next: Tab | undefined;
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') next = TABS[(index + 1) % TABS.length];
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft')
      next = TABS[(index - 1 + TABS.length) % TABS.length];
    else if (event.key === 'Home') next = TABS[0];
    else if (event.key === 'End') next = TABS[TABS.length - 1];
    if (!next) return;
    event.preventDefault();
    selectTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  }

  return (
    <div className={`dashboard ${collapsed ? 'dashboard--collapsed' : ''}`}>
      <TopBar>
        <Link to="/chat" className="button button--primary button--small">
          <Icon name="chat" size={16} />
          <span className="button__label">{t('dashboard.goToChat')}</span>
        </Link>
        <IconButton icon="logout" label={t('nav.logout')} onClick={() => void logoutToLanding(navigate)} />
      </TopBar>
      <div className="dashboard__body">
        <nav className="dashboard__nav" id="dashboard-nav" aria-label={t('dashboard.sections')}>
          <button
            type="button"
            className="icon-button dashboard__collapse"
            onClick={() => setCollapsed((c) => !c)}
            aria-expanded={!collapsed}
            aria-controls="dashboard-tabs"
            aria-label={t('dashboard.sidebar')}
            title={collapsed ? t('dashboard.expand') : t('dashboard.collapse')}
          >
            <Icon name={collapsed ? 'chevronRight' : 'chevronLeft'} size={18} />
          </button>
          <div
            role="tablist"
            id="dashboard-tabs"
            aria-orientation="vertical"
            aria-label={t('dashboard.sections')}
            className="dashboard__tabs"
          >
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
                title={collapsed ? t(`dashboard.tabs.${name}`) : undefined}
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
            {tab === 'overview' ? <OverviewTab onGo={selectTab} /> : null}
            {tab === 'profile' ? <ProfileTab /> : null}
            {tab === 'subscription' ? <SubscriptionTab /> : null}
            {tab === 'usage' ? <UsageTab /> : null}
            {tab === 'preferences' ? <PreferencesTab /> : null}
          </section>
        </main>
      </div>
    </div>
  );
}
