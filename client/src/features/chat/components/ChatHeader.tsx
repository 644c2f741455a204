import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PERSONALITIES, type Personality } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { IconButton } from '../../../components/ui/IconButton.tsx';
import { LanguageToggle } from '../../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../../components/ui/ThemeToggle.tsx';
import { connectionStatus, useChat } from '../store.ts';

interface Props {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onLogout: () => void;
}

/** Top bar: sessions toggle, server status, personality, language, theme, dashboard, logout. */
export function ChatHeader({ sidebarOpen, onToggleSidebar, onLogout }: Props) {
  const { t } = useTranslation();
  const status = useChat(connectionStatus);
  const personality = useChat((s) => s.personality);
  const setPersonality = useChat((s) => s.setPersonality);
  const statusText = t(`chat.status.${status}`);

  return (
    <header className="chat-topbar">
      <button
        type="button"
        className="icon-button chat-topbar__sessions"
        onClick={onToggleSidebar}
        aria-expanded={sidebarOpen}
        aria-controls="sessions-drawer"
        aria-label={sidebarOpen ? t('chat.closeSessions') : t('chat.openSessions')}
      >
        <Icon name="menu" />
      </button>
      <Logo to="/chat" />
      <p
        className={`status-pill status-pill--${status}`}
        role="status"
        aria-live="polite"
        aria-label={t('chat.status.label', { status: statusText })}
      >
        <span className="status-pill__dot" aria-hidden="true" />
        <span className="status-pill__text">{statusText}</span>
      </p>
      <div className="chat-topbar__actions">
        <label className="select-inline">
          <span className="visually-hidden">{t('personalities.label')}</span>
          <Icon name="smile" size={16} />
          <select value={personality} onChange={(e) => setPersonality(e.target.value as Personality)}>
            {PERSONALITIES.map((p) => (
              <option key={p} value={p}>
                {t(`personalities.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <span className="hide-narrow">
          <LanguageToggle />
          <ThemeToggle />
        </span>
        <Link
          to="/dashboard"
          className="icon-button"
          aria-label={t('chat.dashboard')}
          title={t('chat.dashboard')}
        >
          <Icon name="grid" />
        </Link>
        <IconButton icon="logout" label={t('chat.logout')} onClick={onLogout} />
      </div>
    </header>
  );
}
