import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/Icon.tsx';
import type { Emotion, Gesture } from '@alma/protocol';
import type { MouthSource } from './engine/index.ts';
import { resetToDefaultAvatar, useAvatarSelection } from './selection.ts';
import { AvatarViewer } from './viewer/AvatarViewer.tsx';
import { ViewerBoundary } from './viewer/ViewerBoundary.tsx';
import type { FramingMode } from './viewer/framing.ts';

/** Where the chosen framing is remembered on this device (SPEC ST-3). */
export const FRAMING_STORAGE_KEY = 'alma.stageFraming';

function storedFraming(): FramingMode {
  try {
    return localStorage.getItem(FRAMING_STORAGE_KEY) === 'full' ? 'full' : 'portrait';
  } catch {
    return 'portrait';
  }
}

export interface StageAvatarProps {
  /** Speech audible or a reply streaming: the engine blends idle ↔ speaking. */
  speaking: boolean;
  emotion: Emotion | null;
  /** The latest gesture of `avatar:intent` and a key that changes when it should play. */
  gesture: Gesture | null;
  gestureKey: number;
  gestureDurationMs?: number;
  gestureStartInMs?: number;
  /** Where the mouth is now (the speech queue). */
  mouth: MouthSource;
  /** The avatar's display name. */
  name: string;
}

/**
 * The chat's avatar: the signed-in user's chosen model in the 3D viewer, driven by the chat's
 * speech and emotion, framed head and shoulders or full body (a toggle, remembered on this device).
 * A model that fails or is gone resets the choice to the default avatar.
 */
export function StageAvatar({
  speaking,
  emotion,
  gesture,
  gestureKey,
  gestureDurationMs,
  gestureStartInMs,
  mouth,
  name,
}: StageAvatarProps) {
  const { t } = useTranslation();
  const { userId, avatarId, modelUrl } = useAvatarSelection();
  const [framing, setFraming] = useState<FramingMode>(storedFraming);
  const toggleFraming = () => {
    const next: FramingMode = framing === 'portrait' ? 'full' : 'portrait';
    setFraming(next);
    try {
      localStorage.setItem(FRAMING_STORAGE_KEY, next);
    } catch {
      // Private mode: the choice lasts for this visit.
    }
  };
  return (
    <div className="stage-avatar">
      <ViewerBoundary
        onError={() => userId && resetToDefaultAvatar(userId)}
        fallback={(retry) => (
          <div className="avatar-viewer avatar-viewer--static" role="alert">
            <p>{t('avatar.viewer.errors.generic')}</p>
            <button type="button" className="button button--ghost" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        )}
      >
        <AvatarViewer
          className="stage__viewer-canvas"
          modelUrl={modelUrl}
          avatar={avatarId}
          label={t('avatar.viewer.label', { name })}
          mouth={mouth}
          speaking={speaking}
          emotion={emotion}
          gesture={
            gesture
              ? {
                  name: gesture,
                  key: gestureKey,
                  ...(gestureDurationMs ? { durationMs: gestureDurationMs } : {}),
                  ...(gestureStartInMs ? { startInMs: gestureStartInMs } : {}),
                }
              : null
          }
          reportErrors
          framing={framing}
        />
      </ViewerBoundary>
      <button
        type="button"
        className="icon-button stage-avatar__framing"
        data-testid="stage-framing"
        data-framing={framing}
        aria-pressed={framing === 'full'}
        aria-label={t('avatar.framing.full')}
        title={framing === 'full' ? t('avatar.framing.toPortrait') : t('avatar.framing.toFull')}
        onClick={toggleFraming}
      >
        <Icon name={framing === 'full' ? 'minimize' : 'maximize'} size={18} />
      </button>
    </div>
  );
}
