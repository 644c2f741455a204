import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import type { LocalMessage } from '../events.ts';
import { AudioButton } from './AudioButton.tsx';
import { isAwayFromBottom, keptScrollTop, shouldLoadOlder } from '../logic.ts';
import { useChat } from '../store.ts';

/**
 * The conversation as a log. Scrolling within 60 px of the top loads the previous page (keeping
 * the view still); a "new messages" button shows when more than 100 px from the bottom (§9).
 */
export function MessageList() {
  const { t } = useTranslation();
  const messages = useChat((s) => s.messages);
  const typing = useChat((s) => s.typing);
  const pending = useChat((s) => s.pending);
  const loadingHistory = useChat((s) => s.loadingHistory);
  const hasMore = useChat((s) => s.hasMore);
  const historyPage = useChat((s) => s.historyPage);
  const loadOlder = useChat((s) => s.loadOlder);
  const activeSessionId = useChat((s) => s.activeSessionId);

  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  /** Where the reader was when an older page was asked for; the view is restored from it. */
  const anchor = useRef<{ scrollHeight: number; scrollTop: number } | null>(null);
  const [awayFromBottom, setAwayFromBottom] = useState(false);

  const streaming = messages.some((m) => m.streaming && m.content);
  const showTyping = (typing || pending !== null) && !streaming;

  const scrollToBottom = useCallback((smooth = false) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTo({ top: el.scrollHeight, behavior: smooth ? 'smooth' : 'auto' });
    stick.current = true;
    setAwayFromBottom(false);
  }, []);

  // A new session starts at the bottom.
  useEffect(() => {
    stick.current = true;
  }, [activeSessionId]);

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
    setAwayFromBottom(away);
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

function MessageBubble({ message: m }: { message: LocalMessage }) {
  const { t, i18n } = useTranslation();
  const retry = useChat((s) => s.retry);
  const pending = useChat((s) => s.pending);
  const text = m.contentKey
    ? t(m.contentKey, {
        ...m.contentParams,
        personality: m.contentParams?.personality
          ? t(`personalities.${m.contentParams.personality as 'default'}`)
          : undefined,
      })
    : m.content || (m.type === 'error' ? t('chat.sendError') : '');
  const who = m.voiceError
    ? t('voiceNote.transcriptionError')
    : m.type === 'user'
      ? t('chat.you')
      : m.type === 'bot'
        ? t('chat.companion')
        : m.type === 'error'
          ? t('chat.error')
          : t('chat.system');
  const time = new Date(m.timestamp);
  const timeText = Number.isNaN(time.getTime())
    ? ''
    : time.toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit' });

  return (
    <article
      className={`bubble bubble--${m.type} ${m.streaming ? 'bubble--streaming' : ''} ${m.sending ? 'bubble--sending' : ''}`}
      aria-busy={m.streaming ? true : undefined}
      aria-label={m.streaming ? t('chat.replyArriving') : undefined}
      role={m.type === 'error' ? 'alert' : undefined}
    >
      <header className="bubble__meta">
        <span className="bubble__who">{who}</span>
        {m.emotion && m.type === 'bot' ? (
          <span className="bubble__emotion">{t(`emotions.${m.emotion}`)}</span>
        ) : null}
        {timeText ? <time dateTime={m.timestamp}>{timeText}</time> : null}
        {m.sending ? <span className="bubble__state">{t('chat.sending')}</span> : null}
      </header>
      <p className="bubble__text">
        {text}
        {m.streaming ? <span className="caret" aria-hidden="true" /> : null}
      </p>
      {m.voiceNote && m.sending ? (
        <p className="bubble__note" data-testid="voice-progress">
          {t('voiceNote.transcribing', { progress: m.voiceNote.progress })}
          <progress className="bubble__progress" max={100} value={m.voiceNote.progress} />
        </p>
      ) : null}
      {m.type === 'bot' && m.audioUrl && !m.streaming ? <AudioButton audioUrl={m.audioUrl} /> : null}
      {m.isComplete === false && m.type === 'bot' && !m.streaming ? (
        <p className="bubble__note">{t('chat.incomplete')}</p>
      ) : null}
      {m.retry ? (
        <button
          type="button"
          className="button button--small button--ghost"
          onClick={() => void retry(m.id)}
          disabled={pending !== null}
        >
          <Icon name="refresh" size={16} />
          {t('chat.retry')}
        </button>
      ) : null}
    </article>
  );
}
