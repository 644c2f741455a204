import { useTranslation } from 'react-i18next';
import { findAvatar } from '../../lib/catalog.ts';

/**
 * A small illustrated disc for a system avatar: a stand-in portrait until the 3D models arrive.
 * Each avatar has its own hue so the eight are told apart at a glance.
 */
export function AvatarBadge({
  id,
  size = 56,
  name,
}: {
  id: string | null | undefined;
  size?: number;
  /** The initial shown for an avatar outside the catalogue (an upload, the default). */
  name?: string;
}) {
  const { t } = useTranslation();
  const avatar = findAvatar(id);
  const hue = avatar?.hue ?? 255;
  const initial = (avatar ? t(`avatars.${avatar.id}.name`) : (name ?? '?')).charAt(0).toUpperCase() || '?';
  return (
    <span
      className="avatar-badge"
      style={{ width: size, height: size, ['--hue' as string]: String(hue), fontSize: size * 0.4 }}
      aria-hidden="true"
    >
      {initial}
    </span>
  );
}
