import { useTranslation } from 'react-i18next';
import type { Voice } from '@alma/protocol';
import { Icon } from '../../components/ui/Icon.tsx';
import { useVoices } from './store.ts';

/** A voice's preview toggle: play, or stop it while it plays (spec §4: one preview at a time). */
export function PreviewButton({
  voice,
  className,
  size,
}: {
  voice: Voice;
  className: string;
  size?: number;
}) {
  const { t } = useTranslation();
  const playing = useVoices((s) => s.previewing === voice.id);
  const toggle = useVoices((s) => s.togglePreview);
  return (
    <button
      type="button"
      className={`icon-button ${className}`}
      aria-pressed={playing}
      aria-label={
        playing
          ? t('voiceSelector.stopPreview', { name: voice.name })
          : t('voiceSelector.playPreview', { name: voice.name })
      }
      onClick={() => toggle(voice)}
    >
      <Icon name={playing ? 'stop' : 'play'} size={size} />
    </button>
  );
}

/** The element previews play in; the store drives it. Rendered once by each picker. */
export function PreviewAudio() {
  const playing = useVoices((s) => s.previewing);
  const attach = useVoices((s) => s.attachPreview);
  return (
    <audio
      ref={attach}
      className="voice-selector__audio"
      data-testid="voice-preview-audio"
      data-playing={playing ?? ''}
      preload="auto"
      hidden
    />
  );
}
