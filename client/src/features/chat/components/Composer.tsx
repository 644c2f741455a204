import { useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX_LENGTH } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { VoiceNoteNotice } from '../recording/VoiceNoteNotice.tsx';
import { VoiceRecorder } from '../recording/VoiceRecorder.tsx';
import { selectConnectionStatus, useConnection } from '../../../lib/realtime.ts';
import { useConversation } from '../store/conversation.ts';

const MAX_HEIGHT_PX = 160;

/**
 * Text input: Enter sends, Shift+Enter adds a line; empty, pending or offline blocks sending (§5).
 * A reply already being written does not block: a new send interrupts it (barge-in, SPEC.md S-2).
 */
export function Composer() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [voiceActive, setVoiceActive] = useState(false);
  const send = useConversation((s) => s.send);
  // A reply being written (acknowledged) can be interrupted by a new send (barge-in, SPEC.md S-2).
  const pending = useConversation((s) => s.pending !== null && s.pending.replyId === null);
  const offline = useConnection((s) => selectConnectionStatus(s) === 'offline');
  const area = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const inputId = useId();
  const noticeId = useId();

  const empty = text.trim().length === 0;

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  async function submit() {
    if (empty || pending) return;
    if (offline) {
      // Blocked: the store adds the local "server unavailable" message (spec §4).
      void send(text);
      return;
    }
    const value = text;
    setText('');
    const accepted = await send(value);
    if (!accepted) setText(value);
    area.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit();
  }

  return (
    <form
      className={`composer ${voiceActive ? 'composer--voice' : 'composer--with-mic'}`}
      onSubmit={onSubmit}
    >
      <label htmlFor={inputId} className="visually-hidden">
        {t('chat.inputLabel')}
      </label>
      <textarea
        hidden={voiceActive}
        ref={area}
        id={inputId}
        className="composer__input"
        rows={1}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={offline ? t('chat.placeholderOffline') : t('chat.placeholder')}
        disabled={offline}
        aria-describedby={hintId}
        maxLength={MESSAGE_MAX_LENGTH}
      />
      <VoiceRecorder disabled={offline} onActiveChange={setVoiceActive} noticeId={noticeId} />
      <button
        type="submit"
        hidden={voiceActive}
        className="composer__send"
        disabled={empty || pending}
        aria-label={t('chat.send')}
        title={t('chat.send')}
      >
        <Icon name="send" />
      </button>
      <p id={hintId} className="composer__hint">
        {t('chat.inputHint')}
      </p>
      <VoiceNoteNotice id={noticeId} />
    </form>
  );
}
