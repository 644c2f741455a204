import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';

/** "View <name> in 3D" on an avatar's card, system or uploaded: opens the 3D preview modal. */
export function PreviewButton({ name, onPreview }: { name: string; onPreview: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button button--ghost avatar-card__preview"
      aria-label={t('avatar.selector.previewOf', { name })}
      onClick={onPreview}
    >
      <Icon name="eye" size={14} />
      {t('avatar.selector.preview')}
    </button>
  );
}
