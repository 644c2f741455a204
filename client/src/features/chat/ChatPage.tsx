import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LanguageToggle } from '../../components/ui/LanguageToggle.tsx';
import { SkipLink } from '../../components/ui/SkipLink.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { logout } from '../../lib/logout.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AvatarStage } from './components/AvatarStage.tsx';
import { ChatHeader } from './components/ChatHeader.tsx';
import { Composer } from './components/Composer.tsx';
import { LimitBanner, ProtocolBanner } from './components/LimitBanner.tsx';
import { MessageList } from './components/MessageList.tsx';
import { SessionDialogs, type SessionDialogState } from './components/SessionDialogs.tsx';
import { SessionsSidebar } from './components/SessionsSidebar.tsx';
import { useChatSocket } from './hooks/use-chat-socket.ts';
import { useServerHealth } from './hooks/use-server-health.ts';
import { useChat } from './store.ts';

export function ChatPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('chat.pageTitle'));
  const navigate = useNavigate();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [dialog, setDialog] = useState<SessionDialogState>(null);
  const activeTitle = useChat(
    (s) => s.sessions.find((x) => x.sessionId === s.activeSessionId)?.title ?? null,
  );
  const hasActive = useChat((s) => s.activeSessionId !== null);

  useServerHealth();
  useChatSocket();

  useEffect(() => {
    void useChat.getState().loadSessions();
    return () => useChat.getState().reset();
  }, []);

  async function onLogout() {
    // Leave the guarded page first: cleared auth on /chat would make its guard send us to /login.
    await navigate('/', { replace: true });
    await logout();
  }

  return (
    <div className="chat-app">
      <SkipLink target="#composer" />
      <ChatHeader
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen((o) => !o)}
        onLogout={() => void onLogout()}
      />
      <ProtocolBanner />
      <LimitBanner />
      <div className="chat-layout">
        <SessionsSidebar
          open={sidebarOpen}
          onClose={() => setSidebarOpen(false)}
          onNew={() => {
            setSidebarOpen(false);
            setDialog({ kind: 'new' });
          }}
          onRename={(session) => setDialog({ kind: 'rename', session })}
          onDelete={(session) => setDialog({ kind: 'delete', session })}
        />
        <AvatarStage />
        <main className="chat-panel" id="main" aria-labelledby="chat-title">
          <div className="chat-panel__header">
            <h1 id="chat-title" className="chat-panel__title">
              {hasActive ? (activeTitle ?? t('chat.untitled')) : t('chat.pageTitle')}
            </h1>
            <span className="show-narrow">
              <LanguageToggle />
              <ThemeToggle />
            </span>
          </div>
          <MessageList />
          <div id="composer">
            <Composer />
          </div>
        </main>
      </div>
      <SessionDialogs state={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}
