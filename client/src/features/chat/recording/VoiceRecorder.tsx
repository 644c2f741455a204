import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { useConversation } from '../store/conversation.ts';
import { elapsedSeconds, isSwipeCancel } from './machine.ts';
import { useNoteMode } from './note-mode.ts';
import { RECORDING_TOGGLE_EVENT, useRecordingStatus, type RemoteRecording } from './remote.ts';
import { useRecorder } from './use-recorder.ts';
import { VoiceWaveform } from './VoiceWaveform.tsx';
import './recording.css';

/**
 * Spec §2 Input / §4 Recording: the record button; while recording, a timer in seconds with stop
 * (on touch, a swipe up of more than 50 px cancels); once stopped, a preview with play, the
 * waveform (wavesurfer.js; click, drag or arrow keys seek), send and delete. Starting a recording barges in like a new send (stops speech, cancels the reply).
 */
export function VoiceRecorder({
  disabled,
  onActiveChange,
  noticeId,
}: {
  disabled: boolean;
  onActiveChange: (active: boolean) => void;
  /** The notice said before recording (VoiceNoteNotice), describing the record button. */
  noticeId?: string;
}) {
  const { t } = useTranslation();
  const { mode, language } = useNoteMode();
  const sendVoiceNote = useConversation((s) => s.sendVoiceNote);
  const interrupt = useConversation((s) => s.interrupt);
  const busy = useConversation((s) => s.pending !== null && s.pending.replyId === null);
  const { state, start, stop, cancel, discard, markSent } = useRecorder({
    lang: language === 'en' ? 'en-US' : 'es-ES',
    recognize: mode === 'browser',
    onStart: () => void interrupt(),
  });
  const [playing, setPlaying] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  const touchStartY = useRef<number | null>(null);

  const active = state.status === 'recording' || state.status === 'requesting' || state.status === 'stopped';
  useEffect(() => onActiveChange(active), [active, onActiveChange]);

  // The control bar's record button (remote.ts): start when idle, stop while recording.
  const remote: RemoteRecording =
    state.status === 'idle'
      ? 'idle'
      : state.status === 'recording' || state.status === 'requesting'
        ? 'recording'
        : 'busy';
  useEffect(
    () => useRecordingStatus.setState({ status: disabled && remote === 'idle' ? 'busy' : remote }),
    [remote, disabled],
  );
  useEffect(() => () => useRecordingStatus.setState({ status: 'idle' }), []);
  useEffect(() => {
    const onToggle = () => {
      if (remote === 'idle' && !disabled) void start();
      else if (state.status === 'recording') stop();
    };
    window.addEventListener(RECORDING_TOGGLE_EVENT, onToggle);
    return () => window.removeEventListener(RECORDING_TOGGLE_EVENT, onToggle);
  }, [remote, disabled, start, stop, state.status]);

  // Spec §4: on touch, a swipe up of more than SWIPE_CANCEL_PX while recording cancels it.
  const recording = state.status === 'recording';
  useEffect(() => {
    if (!recording) return;
    const onStartTouch = (e: TouchEvent) => {
      touchStartY.current = e.touches[0]?.clientY ?? null;
    };
    const onMove = (e: TouchEvent) => {
      const y = e.touches[0]?.clientY;
      if (touchStartY.current !== null && y !== undefined && isSwipeCancel(touchStartY.current, y)) {
        touchStartY.current = null;
        cancel();
      }
    };
    const onEnd = () => {
      touchStartY.current = null;
    };
    window.addEventListener('touchstart', onStartTouch, { passive: true });
    window.addEventListener('touchmove', onMove, { passive: true });
    window.addEventListener('touchend', onEnd);
    return () => {
      window.removeEventListener('touchstart', onStartTouch);
      window.removeEventListener('touchmove', onMove);
      window.removeEventListener('touchend', onEnd);
    };
  }, [recording, cancel]);

  function togglePlay() {
    const el = audio.current;
    if (!el) return;
    if (el.paused) void el.play().catch(() => setPlaying(false));
    else el.pause();
  }

  function send() {
    if (state.status !== 'stopped') return;
    const { blob, mimeType, durationMs, transcriptHint } = state.note;
    audio.current?.pause();
    markSent();
    void sendVoiceNote({
      audio: blob,
      mimeType,
      durationMs,
      ...(transcriptHint ? { transcriptHint, transcriber: 'browser' as const } : {}),
    });
  }

  if (state.status === 'recording' || state.status === 'requesting') {
    const seconds = state.status === 'recording' ? elapsedSeconds(state.elapsedMs) : 0;
    return (
      <div className="voice-rec voice-rec--recording" role="group" aria-label={t('voiceNote.recording')}>
        <span className="voice-rec__dot" aria-hidden="true" />
        <span className="voice-rec__label">{t('voiceNote.recording')}</span>
        <span className="voice-rec__timer" role="timer" aria-live="off" data-testid="voice-timer">
          {t('voiceNote.timer', { seconds })}
        </span>
        <span className="voice-rec__hint">{t('voiceNote.swipeHint')}</span>
        <button
          type="button"
          className="voice-rec__icon voice-rec__icon--ghost"
          onClick={cancel}
          aria-label={t('voiceNote.cancel')}
          title={t('voiceNote.cancel')}
        >
          <Icon name="trash" />
        </button>
        <button
          type="button"
          className="voice-rec__icon voice-rec__icon--stop"
          onClick={stop}
          disabled={state.status !== 'recording'}
          aria-label={t('voiceNote.stop')}
          title={t('voiceNote.stop')}
        >
          <Icon name="stop" />
        </button>
      </div>
    );
  }

  if (state.status === 'stopped') {
    return (
      <div className="voice-rec voice-rec--preview" role="group" aria-label={t('voiceNote.preview')}>
        <audio
          ref={audio}
          src={state.note.url}
          preload="metadata"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          data-testid="voice-preview-audio"
        />
        <button
          type="button"
          className="voice-rec__icon voice-rec__icon--ghost"
          onClick={togglePlay}
          aria-label={playing ? t('voiceNote.pause') : t('voiceNote.play')}
          title={playing ? t('voiceNote.pause') : t('voiceNote.play')}
        >
          <Icon name={playing ? 'stop' : 'play'} />
        </button>
        <VoiceWaveform
          blob={state.note.blob}
          url={state.note.url}
          media={audio}
          durationMs={state.note.durationMs}
          onTogglePlay={togglePlay}
        />
        <span className="voice-rec__timer">
          {t('voiceNote.timer', { seconds: elapsedSeconds(state.note.durationMs) })}
        </span>
        <button
          type="button"
          className="voice-rec__icon voice-rec__icon--ghost"
          onClick={() => {
            audio.current?.pause();
            discard();
          }}
          aria-label={t('voiceNote.delete')}
          title={t('voiceNote.delete')}
        >
          <Icon name="trash" />
        </button>
        <button
          type="button"
          className="voice-rec__icon voice-rec__icon--send"
          onClick={send}
          disabled={busy || disabled}
          aria-label={t('voiceNote.send')}
          title={t('voiceNote.send')}
        >
          <Icon name="send" />
        </button>
      </div>
    );
  }

  const error = state.status === 'idle' ? state.error : null;
  return (
    <>
      <button
        type="button"
        className="voice-rec__mic"
        onClick={() => void start()}
        disabled={disabled}
        aria-label={t('voiceNote.record')}
        aria-describedby={mode === 'server' ? undefined : noticeId}
        title={t('voiceNote.record')}
      >
        <Icon name="mic" />
      </button>
      {error ? (
        <p className="voice-rec__error" role="alert">
          {error === 'micDenied' ? t('voiceNote.micDenied') : t('voiceNote.unsupported')}
        </p>
      ) : null}
    </>
  );
}
