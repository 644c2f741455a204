import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { isAwayFromBottom, keptScrollTop, shouldLoadOlder } from '../logic.ts';
import { useConversation } from '../store/conversation.ts';
import { MessageBubble } from './MessageBubble.tsx';

/**
 * The conversation as a log. Scrolling within 60 px of the top loads the previous page (keeping
 * the view still); a "new messages" button shows when more than 100 px from the bottom (§9).
 */
export function MessageList() {
  const { t } = useTranslation();
  const messages = useConversation((s) => s.messages);
  const typing = useConversation((s) => s.typing);
  const pending = useConversation((s) => s.pending);
  const loadingHistory = useConversation((s) => s.loadingHistory);
  const hasMore = useConversation((s) => s.hasMore);
  const historyPage = useConversation((s) => s.historyPage);
  const loadOlder = useConversation((s) => s.loadOlder);
  const activeSessionId = useConversation((s) => s.activeSessionId);

  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** Where the reader was when an older page was asked for; the view is restored from it. */
  const anchor = useRef<{ scrollHeight: number; scrollTop: number } | null>(null);
  /** The session whose reader scrolled up from the bottom: another session starts with none. */
  const [awayIn, setAwayIn] = useState<string | null | undefined>(undefined);
  const awayFromBottom = awayIn === activeSessionId;

  const streaming = messages.some((m) => m.streaming && m.content);
  // The dots show from the send until the companion says it stopped writing (`chat:typing` false)
  // or its text arrives; before the ack there is nothing else to show.
  const showTyping = (typing || (pending !== null && pending.replyId === null)) && !streaming;
  const lastId = messages.at(-1)?.id;
  const ownSend = messages.at(-1)?.sending === true;

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
    stick.current = true;
    setAwayIn(undefined);
  }, []);

  // A new session starts at the bottom, with nothing "new" below.
  useEffect(() => {
    stick.current = true;
    anchor.current = null;
  }, [activeSessionId]);

  // Sending brings the reader to their message, wherever they had scrolled to.
  useLayoutEffect(() => {
    if (ownSend) scrollToBottom();
  }, [lastId, ownSend, scrollToBottom]);

  // After content changes: keep the view still when older messages were prepended, else follow the
  // bottom if the reader was there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      // Wait for the older page; then keep the message that was on screen where it was.
      if (loadingHistory) return;
      el.scrollTop = keptScrollTop(anchor.current, el.scrollHeight);
      anchor.current = null;
      return;
    }
    if (stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, showTyping, loadingHistory]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const away = isAwayFromBottom(el);
    stick.current = !away;
    setAwayIn(away ? activeSessionId : undefined);
    if (anchor.current) {
      // Still loading: follow the reader, so the restored view is where they are now.
      anchor.current = { scrollHeight: el.scrollHeight, scrollTop: el.scrollTop };
      return;
    }
    if (historyPage > 0 && shouldLoadOlder(el, { hasMore, loading: loadingHistory })) {
      anchor.current = { scrollHeight: el.scrollHeight, scrollTop: el.scrollTop };
      void loadOlder();
    }
  }

  return (
    <div className="message-area">
      <div
        ref={scroller}
        className="message-list"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={t('chat.messages')}
        tabIndex={0}
        onScroll={onScroll}
      >
        {loadingHistory && historyPage === 0 && messages.length === 0 ? (
          <div className="message-list__loader">
            <Spinner label={t('chat.loadingMessages')} />
          </div>
        ) : null}
        {!loadingHistory && messages.length === 0 && !pending ? (
          <div className="message-list__empty">
            <Icon name="sparkle" size={28} />
            <h2>{t('chat.emptyTitle')}</h2>
            <p>{t('chat.emptyText')}</p>
          </div>
        ) : null}
        {messages.map((m) => (
          <MessageBubble key={m.id} message={m} />
        ))}
        {showTyping ? (
          <div className="bubble bubble--bot bubble--typing">
            <span className="visually-hidden">{t('chat.typing')}</span>
            <span className="typing-dots" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
          </div>
        ) : null}
      </div>
      {loadingHistory && historyPage > 0 ? (
        // Outside the scroller, so it does not move what the reader is looking at.
        <div className="message-list__older">
          <Spinner label={t('chat.loadingOlder')} />
        </div>
      ) : null}
      {awayFromBottom ? (
        <button type="button" className="new-messages" onClick={() => scrollToBottom(true)}>
          <Icon name="arrowDown" size={16} />
          {t('chat.newMessages')}
        </button>
      ) : null}
    </div>
  );
}
