import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import type { LocalMessage } from '../model/messages.ts';
import { useConversation } from '../store/conversation.ts';
import { AudioButton } from './AudioButton.tsx';

/**
 * One message: who, when, the text (or its i18n key), and what goes with it — transcription
 * progress of a voice note being sent, the audio of a reply or of the user's own voice note, a
 * note the server could not transcribe (kept, playable), the retry of a failed send.
 */
export function MessageBubble({ message: m }: { message: LocalMessage }) {
  const { t, i18n } = useTranslation();
  const retry = useConversation((s) => s.retry);
  const pending = useConversation((s) => s.pending);
  const params = m.contentParams ?? {};
  const text = m.contentKey
    ? t(m.contentKey, {
        ...params,
        personality: params.personality ? t(`personalities.${params.personality as 'default'}`) : undefined,
        language: params.language ? t(`voiceNote.languageName.${params.language as 'es'}`) : undefined,
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
  const playable = m.audioUrl && !m.streaming && (m.type === 'bot' || m.type === 'user');

  return (
    <article
      className={`bubble bubble--${m.type} ${m.streaming ? 'bubble--streaming' : ''} ${m.sending ? 'bubble--sending' : ''}`}
      aria-busy={m.streaming ? true : undefined}
      aria-label={m.streaming ? t('chat.replyArriving') : undefined}
      role={m.type === 'error' ? 'alert' : undefined}
      data-voice-note={m.audioUrl && m.type === 'user' ? 'stored' : m.keptNote ? 'kept' : undefined}
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
      {m.transcribedBy === 'browser' && !m.keptNote ? (
        <p className="bubble__note">{t('voiceNote.transcribedByBrowser')}</p>
      ) : null}
      {playable && m.audioUrl ? (
        <AudioButton
          audioUrl={m.audioUrl}
          kind={m.type === 'user' ? 'note' : 'reply'}
          emotion={m.emotion ?? null}
        />
      ) : null}
      {m.keptNote ? <AudioButton audioUrl={m.keptNote.url} kind="note" local /> : null}
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
