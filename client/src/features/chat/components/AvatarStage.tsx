import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { findAvatar } from '../../../lib/catalog.ts';
import { usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { useChat } from '../store.ts';

/**
 * ── 3D AVATAR VIEW GOES HERE ──────────────────────────────────────────────────────────────
 * A later issue mounts the r3f canvas (features/avatar) in place of `.stage__portrait`, fed by
 * the same store fields used below (emotion, gesture, streaming). Until then this stage shows
 * the chosen avatar, what it is doing and its current emotion from `chat:emotion`.
 */
export function AvatarStage() {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id);
  const { avatar } = usePreferencesOf(userId);
  const emotion = useChat((s) => s.emotion);
  const pending = useChat((s) => s.pending !== null);
  const speaking = useChat((s) => s.messages.some((m) => m.streaming));
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
        <Link to="/onboarding" className="link link--muted stage__change">
          {t('chat.changeAvatar')}
        </Link>
      </div>
    </section>
  );
}
