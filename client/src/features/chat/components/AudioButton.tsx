import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routes, type Emotion } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { call } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { audioButtonReducer, audioFileName } from '../audio/audio-button.ts';
import { stopSpeech } from '../audio/speech.ts';
import { replay, stopReplay, useReplay } from '../replay/replay.ts';

/**
 * Spec §4 "Bot audio button": plays a message's stored file — a reply's speech, or the user's own
 * voice note (SPEC.md V-4). Its state comes from the existence check (SPEC.md S-5); a missing file
 * shows the spec's "removed by automatic cleanup" alert. A note the server did not keep plays
 * from the browser's own copy (`local`: an object URL, nothing to check). A reply replays on the
 * stage (SPEC.md ST-5): through the speech queue, so the avatar speaks it with the reply's emotion;
 * a note plays in its own audio element.
 */
export function AudioButton({
  audioUrl,
  kind = 'reply',
  local = false,
  emotion = null,
}: {
  audioUrl: string;
  kind?: 'reply' | 'note';
  local?: boolean;
  /** A reply's emotion, shown on the avatar while it replays. */
  emotion?: Emotion | null;
}) {
  const { t } = useTranslation();
  const filename = local ? null : audioFileName(audioUrl);
  const [state, dispatch] = useReducer(audioButtonReducer, 'checking');
  const player = useRef<HTMLAudioElement | null>(null);
  const onStage = kind === 'reply' && !local;
  const replaying = useReplay((s) => s.audioUrl === audioUrl);

  useEffect(() => {
    if (local) {
      dispatch({ type: 'checked', exists: true });
      return;
    }
    if (!filename) {
      dispatch({ type: 'checkFailed' });
      return;
    }
    let live = true;
    call(routes.audio.check, { params: { filename } })
      .then(({ exists }) => live && dispatch({ type: 'checked', exists }))
      .catch(() => live && dispatch({ type: 'checkFailed' }));
    return () => {
      live = false;
    };
  }, [filename, local]);

  // The file is attached on the first play; `load()` restarts it from the beginning.
  const [armed, setArmed] = useState(false);
  // A replay ends when the queue falls silent, or when other speech takes its place.
  useEffect(() => {
    if (onStage && state === 'playing' && !replaying) dispatch({ type: 'ended' });
  }, [onStage, state, replaying]);

  useEffect(() => {
    const audio = player.current;
    if (!audio) return;
    if (state !== 'playing') {
      audio.pause();
      return;
    }
    audio.load();
    audio.play().catch((error: unknown) => {
      // A refused autoplay is not a missing file; a failed load is reported by onError.
      if (error instanceof DOMException && error.name === 'NotAllowedError') dispatch({ type: 'stop' });
    });
  }, [state]);

  const unavailableText = t('chat.audio.unavailable');

  function onClick() {
    if (state === 'unavailable') {
      toast(unavailableText, 'error');
      return;
    }
    if (state === 'playing') {
      if (onStage) stopReplay(audioUrl);
      dispatch({ type: 'stop' });
      return;
    }
    if (state !== 'available') return;
    if (onStage) {
      dispatch({ type: 'play' });
      replay(audioUrl, emotion).catch(() => {
        dispatch({ type: 'loadFailed' });
        toast(unavailableText, 'error');
      });
      return;
    }
    // The reply's live speech and the stored file would talk over each other.
    stopSpeech();
    setArmed(true);
    dispatch({ type: 'play' });
  }

  function onError() {
    if (!armed) return;
    dispatch({ type: 'loadFailed' });
    toast(unavailableText, 'error');
  }

  const label =
    state === 'checking'
      ? t('chat.audio.checking')
      : state === 'playing'
        ? t(kind === 'note' ? 'voiceNote.stopNote' : 'chat.audio.stop')
        : state === 'available'
          ? t(kind === 'note' ? 'voiceNote.playNote' : 'chat.audio.play')
          : unavailableText;

  return (
    <div className={`bubble__audio bubble__audio--${state}`}>
      {onStage ? null : (
        <audio
          ref={player}
          src={armed ? audioUrl : undefined}
          preload="none"
          onEnded={() => dispatch({ type: 'ended' })}
          onError={onError}
        />
      )}
      <button
        type="button"
        className="button button--small button--ghost bubble__audio-button"
        data-audio-state={state}
        onClick={onClick}
        disabled={state === 'checking'}
        aria-label={label}
        title={label}
        aria-pressed={state === 'playing' || state === 'available' ? state === 'playing' : undefined}
      >
        {state === 'checking' ? (
          <Spinner />
        ) : (
          <Icon
            name={state === 'playing' ? 'stop' : state === 'available' ? 'play' : 'volumeOff'}
            size={16}
          />
        )}
        <span className="bubble__audio-text">
          {state === 'playing'
            ? t('chat.audio.playing')
            : state === 'available'
              ? t('chat.audio.listen')
              : state === 'unavailable'
                ? t('chat.audio.unavailableShort')
                : null}
        </span>
      </button>
    </div>
  );
}
