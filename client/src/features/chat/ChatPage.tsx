import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ErrorBoundary } from '../../components/ui/ErrorBoundary.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { SkipLink } from '../../components/ui/SkipLink.tsx';
import { Toaster } from '../../components/ui/Toaster.tsx';
import { logoutToLanding } from '../../lib/logout.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { installAudioUnlock, stopSpeech } from './audio/speech.ts';
import { AvatarStage, type StageAvatarDrive } from './components/AvatarStage.tsx';
import { ChatHeader } from './components/ChatHeader.tsx';
import { Composer } from './components/Composer.tsx';
import { ContextStrip } from './components/ContextStrip.tsx';
import { LimitBanner, ProtocolBanner } from './components/LimitBanner.tsx';
import { MessageList } from './components/MessageList.tsx';
import type { OptionsAction } from './components/OptionsMenu.tsx';
import { SessionDialogs, type SessionDialogState } from './components/SessionDialogs.tsx';
import { SessionsSidebar } from './components/SessionsSidebar.tsx';
import { useChatEvents } from './hooks/use-chat-events.ts';
import { useChatOverlay } from './hooks/use-chat-overlay.ts';
import { useConversation } from './store/conversation.ts';
import { useSessions } from './store/sessions.ts';
import './chat.css';

/** What app/ composes into the chat from the avatar and voice features (features never import each other). */
export interface ChatPageSlots {
  /** The 3D avatar of the stage. */
  renderAvatar?: (drive: StageAvatarDrive) => ReactNode;
  /** The avatar selector modal (spec §2). */
  renderAvatarPicker?: (onClose: () => void) => ReactNode;
  /** The voice selector modal (spec §2), for the open session. */
  renderVoicePicker?: (onClose: () => void, sessionId: string | null) => ReactNode;
  /** A custom avatar's own name, for the stage's caption (system avatars are named by id). */
  avatarName?: string | null;
}

/** The chat screen inside its own error boundary (spec §2: a fallback with reload and retry). */
export function ChatPage(slots: ChatPageSlots) {
  return (
    <ErrorBoundary>
      <ChatScreen {...slots} />
    </ErrorBoundary>
  );
}

function ChatScreen({ renderAvatar, renderAvatarPicker, renderVoicePicker, avatarName }: ChatPageSlots) {
  const { t } = useTranslation();
  useDocumentTitle(t('chat.pageTitle'));
  const navigate = useNavigate();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [dialog, setDialog] = useState<SessionDialogState>(null);
  const [picker, setPicker] = useState<'avatar' | 'voice' | null>(null);
  const overlay = useChatOverlay();
  const openChatButton = useRef<HTMLDivElement>(null);
  const activeId = useConversation((s) => s.activeSessionId);
  const activeSession = useSessions((s) => s.sessions.find((x) => x.sessionId === activeId) ?? null);
  const hasActive = activeId !== null;
  const contextEmotion = useConversation((s) => s.context?.dominantEmotion ?? null);
  const dominant = activeSession?.dominantEmotion ?? contextEmotion;

  useChatEvents();

  useEffect(() => {
    void useSessions.getState().load();
    const removeUnlock = installAudioUnlock();
    return () => {
      removeUnlock();
      stopSpeech();
      useConversation.getState().reset();
      useSessions.getState().reset();
    };
  }, []);

  // Closing the overlay moves focus to the control that brings it back.
  const { open: overlayOpen, narrow } = overlay;
  useEffect(() => {
    if (narrow && !overlayOpen)
      openChatButton.current?.querySelector<HTMLElement>('.stage__open-chat')?.focus();
  }, [narrow, overlayOpen]);

  function onOption(action: OptionsAction) {
    if (action === 'clear') setDialog({ kind: 'clear' });
    else setPicker(action);
  }

  const title = hasActive ? (activeSession?.title ?? t('chat.untitled')) : t('chat.pageTitle');

  return (
    <div className="chat-app">
      <SkipLink target="#composer" />
      <ChatHeader
        sidebarOpen={sidebarOpen}
        onToggleSidebar={() => setSidebarOpen((o) => !o)}
        onLogout={() => void logoutToLanding(navigate)}
        onOption={onOption}
        onOpenChat={() => {
          overlay.setOpen(true);
          document.querySelector<HTMLElement>('#composer textarea')?.focus();
        }}
      />
      <ProtocolBanner />
      <LimitBanner />
      <div
        className={`chat-layout ${overlay.visible ? '' : 'chat-layout--chat-closed'} ${
          overlay.narrow && overlay.visible && overlay.size === 'full' ? 'chat-layout--sheet-full' : ''
        }`}
      >
        <SessionsSidebar
          open={sidebarOpen}
          onClose={() => setSidebarOpen(false)}
          onNew={() => {
            setSidebarOpen(false);
            setDialog({ kind: 'new' });
          }}
          onRename={(session) => setDialog({ kind: 'rename', session })}
          onDelete={(session) => setDialog({ kind: 'delete', session })}
          onExport={(session) => setDialog({ kind: 'export', session })}
        />
        <div ref={openChatButton} className="chat-layout__stage">
          <AvatarStage
            chatClosed={!overlay.visible}
            onOpenChat={() => overlay.setOpen(true)}
            onPickAvatar={() => setPicker('avatar')}
            onPickVoice={() => setPicker('voice')}
            renderAvatar={renderAvatar}
            avatarName={avatarName ?? null}
          />
        </div>
        <main
          className={`chat-panel ${overlay.dragging ? 'chat-panel--dragging' : ''}`}
          id="main"
          aria-labelledby="chat-title"
          inert={!overlay.visible}
          data-overlay={overlay.narrow ? (overlay.visible ? 'open' : 'closed') : undefined}
          data-sheet={overlay.narrow ? overlay.size : undefined}
          style={overlay.offset ? { transform: `translateY(${overlay.offset}px)` } : undefined}
        >
          <div
            className="chat-panel__handle"
            {...overlay.handle}
            role="presentation"
            data-testid="chat-drag-handle"
          >
            <span aria-hidden="true" />
          </div>
          <div className="chat-panel__header">
            <h1 id="chat-title" className="chat-panel__title">
              {title}
            </h1>
            {dominant ? (
              <span className="chip chip--small chat-panel__mood" title={t('chat.dominantEmotionHint')}>
                {t('chat.dominantEmotion', { emotion: t(`emotions.${dominant}`) })}
              </span>
            ) : null}
            <button
              type="button"
              className="icon-button chat-panel__size"
              data-testid="chat-sheet-size"
              onClick={overlay.toggleSize}
              aria-label={overlay.size === 'full' ? t('chat.sheet.toHalf') : t('chat.sheet.toFull')}
              title={overlay.size === 'full' ? t('chat.sheet.toHalf') : t('chat.sheet.toFull')}
            >
              <Icon name={overlay.size === 'full' ? 'minimize' : 'maximize'} />
            </button>
            <button
              type="button"
              className="icon-button chat-panel__close"
              onClick={() => overlay.setOpen(false)}
              aria-label={t('chat.closeChat')}
              title={t('chat.closeChat')}
            >
              <Icon name="chevronDown" />
            </button>
          </div>
          <ContextStrip />
          <MessageList />
          <div id="composer">
            <Composer />
          </div>
        </main>
      </div>
      <SessionDialogs state={dialog} onClose={() => setDialog(null)} />
      {picker === 'avatar' && renderAvatarPicker ? renderAvatarPicker(() => setPicker(null)) : null}
      {picker === 'voice' && renderVoicePicker ? renderVoicePicker(() => setPicker(null), activeId) : null}
      <Toaster />
    </div>
  );
}
