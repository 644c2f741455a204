import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Emotion, Gesture } from '@alma/protocol';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { IconButton } from '../../../components/ui/IconButton.tsx';
import { ThemeToggle } from '../../../components/ui/ThemeToggle.tsx';
import { findAvatar } from '../../../lib/catalog.ts';
import { usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { speechQueue, useSpeech } from '../audio/speech.ts';
import { requestRecordingToggle, useRecordingStatus } from '../recording/remote.ts';
import { useReplay } from '../replay/replay.ts';
import { useConversation } from '../store/conversation.ts';

interface Props {
  /** Narrow screens with the chat overlay closed show the "open chat" button. */
  chatClosed: boolean;
  onOpenChat: () => void;
  onPickAvatar: () => void;
  onPickVoice: () => void;
  /**
   * The 3D avatar (features/avatar, composed in app/): given what the chat knows, it renders the
   * viewer in place of the portrait.
   */
  renderAvatar?: (drive: StageAvatarDrive) => ReactNode;
  /** A custom avatar's own name (its upload's), shown instead of the generic one. */
  avatarName?: string | null;
}

/** What the chat feeds the 3D avatar (spec §4 Avatar animation). */
export interface StageAvatarDrive {
  speaking: boolean;
  emotion: Emotion | null;
  gesture: Gesture | null;
  /** Changes with each `avatar:intent` that asks for a gesture (the same one twice plays twice). */
  gestureKey: number;
  /** How long the gesture lasts, and when it starts (ms from now), from the intent. */
  gestureDurationMs?: number;
  gestureStartInMs?: number;
  mouth: typeof speechQueue;
  name: string;
}

/**
 * The avatar view of spec §2: the 3D avatar (or, without one, the portrait), what it is doing and
 * the current emotion from `chat:emotion` on its face (the header's badge names the dominant one), and the control bar (sound on or off, voice, avatar,
 * theme, open chat; the voice-note record button lives in the composer). The viewer is fed the
 * speech queue (`getMouthState()` for lip-sync), speaking, emotion and gestures.
 */
export function AvatarStage({
  chatClosed,
  onOpenChat,
  onPickAvatar,
  onPickVoice,
  renderAvatar,
  avatarName,
}: Props) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id);
  const { avatar } = usePreferencesOf(userId);
  // While a reply replays, its own emotion is on the avatar's face (SPEC.md ST-5).
  const liveEmotion = useConversation((s) => s.emotion);
  const replayEmotion = useReplay((s) => (s.replyId ? s.emotion : null));
  const emotion = replayEmotion ?? liveEmotion;
  const pending = useConversation((s) => s.pending !== null);
  const writing = useConversation((s) => s.messages.some((m) => m.streaming));
  const talking = useSpeech((s) => s.speakingReplyId !== null);
  const speaking = writing || talking;
  const muted = useSpeech((s) => s.muted);
  const toggleMuted = useSpeech((s) => s.toggleMuted);
  const intent = useConversation((s) => s.intent);
  const recording = useRecordingStatus((s) => s.status);
  const known = findAvatar(avatar);
  const name = avatarName
    ? avatarName
    : known
      ? t(`avatars.${known.id}.name`)
      : renderAvatar
        ? t('avatar.defaultName')
        : t('chat.stage.noAvatar');
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
      {renderAvatar ? (
        <div className="stage__viewer">
          {renderAvatar({
            speaking,
            emotion,
            gesture: intent?.gesture ?? null,
            gestureKey: intent?.key ?? 0,
            ...(intent ? { gestureDurationMs: intent.durationMs, gestureStartInMs: intent.atMs } : {}),
            mouth: speechQueue,
            name,
          })}
        </div>
      ) : (
        <div className="stage__portrait" aria-hidden="true">
          <AvatarBadge id={avatar} size={132} />
        </div>
      )}
      <div className="stage__caption">
        <p className="stage__name">{name}</p>
        <p className="stage__activity" role="status" aria-live="polite">
          {activity}
        </p>
        {renderAvatar ? null : <p className="stage__note">{t('chat.stage.placeholder', { name })}</p>}
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
        <IconButton
          icon={recording === 'recording' ? 'stop' : 'mic'}
          label={recording === 'recording' ? t('chat.stage.stopRecording') : t('chat.stage.record')}
          aria-pressed={recording === 'recording'}
          disabled={recording === 'busy'}
          data-testid="stage-record"
          onClick={() => {
            // Stopping leads to the note's preview in the composer: show it where it is hidden.
            if (recording === 'recording' && chatClosed) onOpenChat();
            requestRecordingToggle();
          }}
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
