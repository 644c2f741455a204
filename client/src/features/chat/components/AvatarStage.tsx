import { useTranslation } from 'react-i18next';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { IconButton } from '../../../components/ui/IconButton.tsx';
import { ThemeToggle } from '../../../components/ui/ThemeToggle.tsx';
import { findAvatar } from '../../../lib/catalog.ts';
import { usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { useSpeech } from '../audio/speech.ts';
import { useChat } from '../store.ts';

interface Props {
  /** Narrow screens with the chat overlay closed show the "open chat" button. */
  chatClosed: boolean;
  onOpenChat: () => void;
  onPickAvatar: () => void;
  onPickVoice: () => void;
}

/**
 * ── 3D AVATAR VIEW GOES HERE ──────────────────────────────────────────────────────────────
 * A later issue mounts the r3f canvas (features/avatar) in place of `.stage__portrait`, fed by
 * the same store fields used below (emotion, gesture, streaming). Until then this stage shows
 * the chosen avatar, what it is doing and its current emotion from `chat:emotion`, and the
 * control bar of spec §2 (sound on or off, voice, avatar, theme, open chat; voice notes come
 * with the voice issue). `speechQueue` (audio/speech.ts) gives the avatar the playback time and
 * `getMouthState()` for lip-sync.
 */
export function AvatarStage({ chatClosed, onOpenChat, onPickAvatar, onPickVoice }: Props) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id);
  const { avatar } = usePreferencesOf(userId);
  const emotion = useChat((s) => s.emotion);
  const pending = useChat((s) => s.pending !== null);
  const writing = useChat((s) => s.messages.some((m) => m.streaming));
  const talking = useSpeech((s) => s.speakingReplyId !== null);
  const speaking = writing || talking;
  const muted = useSpeech((s) => s.muted);
  const toggleMuted = useSpeech((s) => s.toggleMuted);
  const known = findAvatar(avatar);
  const name = known ? t(`avatars.${known.id}.name`) : t('chat.stage.noAvatar');
  const activity = speaking
    ? t('chat.stage.speaking')
    : pending
      ? t('chat.stage.thinking')
      : t('chat.stage.listening');

  return (
    <section
      className={`stage ${speaking ? 'stage--speaking' : ''}`}
      aria-label={t('chat.stage.label')}
      data-emotion={emotion ?? 'neutral'}
      style={{ ['--hue' as string]: String(known?.hue ?? 255) }}
    >
      <div className="stage__glow" aria-hidden="true" />
      <div className="stage__portrait" aria-hidden="true">
        <AvatarBadge id={avatar} size={132} />
      </div>
      <div className="stage__caption">
        <p className="stage__name">{name}</p>
        <p className="stage__activity" role="status" aria-live="polite">
          {activity}
        </p>
        <p className="stage__emotion">
          <span className="chip">
            {t('chat.stage.mood', { emotion: t(`emotions.${emotion ?? 'neutral'}`) })}
          </span>
        </p>
        <p className="stage__note">{t('chat.stage.placeholder', { name })}</p>
      </div>
      <div className="stage__controls" role="toolbar" aria-label={t('chat.stage.controls')}>
        <IconButton
          icon={muted ? 'volumeOff' : 'volume'}
          label={t('chat.mute')}
          title={muted ? t('chat.soundOff') : t('chat.soundOn')}
          aria-pressed={muted}
          data-testid="sound-toggle"
          data-muted={muted ? 'true' : 'false'}
          className={muted ? 'icon-button--muted' : undefined}
          onClick={toggleMuted}
        />
        <IconButton icon="wave" label={t('chat.changeVoice')} onClick={onPickVoice} />
        <IconButton icon="user" label={t('chat.changeAvatar')} onClick={onPickAvatar} />
        <ThemeToggle />
        {chatClosed ? (
          <button type="button" className="button button--primary stage__open-chat" onClick={onOpenChat}>
            <Icon name="chat" size={18} />
            {t('chat.openChat')}
          </button>
        ) : null}
      </div>
    </section>
  );
}
