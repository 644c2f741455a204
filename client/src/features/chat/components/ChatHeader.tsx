import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/Icon.tsx';
import { IconButton } from '../../../components/ui/IconButton.tsx';
import { Logo } from '../../../components/ui/Logo.tsx';
import { selectConnectionStatus, useConnection } from '../../../lib/realtime.ts';
import { useConversation } from '../store/conversation.ts';
import { useSessions } from '../store/sessions.ts';
import { OptionsMenu, type OptionsAction } from './OptionsMenu.tsx';
import { PersonalityMenu } from './PersonalityMenu.tsx';

interface Props {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onLogout: () => void;
  onOption: (action: OptionsAction) => void;
  /** The avatar view's "chat" button: brings the chat panel up and focuses the input. */
  onOpenChat: () => void;
}

/**
 * Top bar of spec §2: session-list toggle, server status, the personality badge and its menu
 * (search, then confirm), options (avatar, voice, clear history, theme, language), chat, close
 * the current conversation, dashboard, logout.
 */
export function ChatHeader({ sidebarOpen, onToggleSidebar, onLogout, onOption, onOpenChat }: Props) {
  const { t } = useTranslation();
  const hasSession = useConversation((s) => s.activeSessionId !== null);
  const status = useConnection(selectConnectionStatus);
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
        data-status={status}
      >
        <span className="status-pill__dot" aria-hidden="true" />
        <span className="status-pill__text">{statusText}</span>
      </p>
      <div className="chat-topbar__actions">
        <PersonalityMenu />
        <OptionsMenu onAction={onOption} />
        <IconButton
          icon="chat"
          label={t('avatar.topbar.openChat')}
          className="chat-topbar__chat"
          onClick={onOpenChat}
        />
        <IconButton
          icon="close"
          label={t('avatar.topbar.closeSession')}
          disabled={!hasSession}
          onClick={() => void useSessions.getState().select(null)}
        />
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
