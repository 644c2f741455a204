import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomAvatar } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { toast } from '../../../lib/toast.ts';
import { AvatarUploadPanel } from '../upload/AvatarUploadPanel.tsx';
import { AvatarPortrait } from './AvatarPortrait.tsx';
import { CompatibilityReport } from '../upload/CompatibilityReport.tsx';
import { PreviewButton } from './PreviewButton.tsx';
import type { CustomAvatarsState } from './use-custom-avatars.ts';

interface Props {
  /** The radio group's name, shared with the system avatars so one choice is made. */
  name: string;
  custom: CustomAvatarsState;
  value: string | null;
  onChange: (id: string) => void;
  onPreview: (avatar: { id: string; name: string; description: string }) => void;
  /** A finished upload: added to the list and chosen (spec §4). */
  onUploaded: (avatar: CustomAvatar) => void;
}

/**
 * The user's own avatars beside the system ones (spec §2 avatar selector, §3 Custom avatar): the
 * ready ones can be chosen and previewed in 3D, each shows its compatibility report, any can be
 * deleted; the upload panel adds more.
 */
export function CustomAvatars({ name, custom, value, onChange, onPreview, onUploaded }: Props) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<string | null>(null);

  async function remove(id: string) {
    setConfirming(null);
    try {
      await custom.remove(id);
    } catch {
      toast(t('avatar.selector.deleteFailed'), 'error');
    }
  }

  return (
    <section className="avatar-custom" aria-label={t('avatar.selector.custom')}>
      <h3 className="avatar-custom__title">{t('avatar.selector.custom')}</h3>
      {custom.error ? (
        <p className="alert alert--error" role="alert">
          {t('avatar.selector.customLoadError')}{' '}
          <button type="button" className="button button--ghost" onClick={custom.reload}>
            {t('common.retry')}
          </button>
        </p>
      ) : null}
      {custom.avatars.length ? (
        <div className="avatar-selector__grid" role="radiogroup" aria-label={t('avatar.selector.custom')}>
          {custom.avatars.map((avatar) => {
            const ready = avatar.status === 'completed';
            return (
              <div key={avatar.id} className="avatar-card avatar-card--custom" data-avatar={avatar.id}>
                <label className="avatar-card__choice">
                  <input
                    type="radio"
                    name={name}
                    value={avatar.id}
                    checked={value === avatar.id}
                    disabled={!ready}
                    onChange={() => onChange(avatar.id)}
                    className="choice-card__input"
                  />
                  <AvatarPortrait src={ready ? avatar.portraitUrl : null} id={avatar.id} name={avatar.name} />
                  <span className="avatar-card__name">{avatar.name}</span>
                  <span className="avatar-card__meta">
                    {t(`avatar.selector.status.${avatar.status}`)}
                    {avatar.error ? ` · ${avatar.error.message}` : ''}
                  </span>
                </label>
                {avatar.compatibility ? <CompatibilityReport report={avatar.compatibility} /> : null}
                <div className="avatar-card__actions">
                  {ready ? <PreviewButton name={avatar.name} onPreview={() => onPreview(avatar)} /> : null}
                  {confirming === avatar.id ? (
                    <>
                      <button
                        type="button"
                        className="button button--danger"
                        onClick={() => void remove(avatar.id)}
                      >
                        {t('avatar.selector.deleteConfirm', { name: avatar.name })}
                      </button>
                      <button
                        type="button"
                        className="button button--ghost"
                        onClick={() => setConfirming(null)}
                      >
                        {t('common.cancel')}
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      className="button button--ghost"
                      aria-label={t('avatar.selector.deleteOf', { name: avatar.name })}
                      onClick={() => setConfirming(avatar.id)}
                    >
                      <Icon name="trash" size={14} />
                      {t('common.delete')}
                    </button>
                  )}
                </div>
              </div>
            );
          })}
        </div>
      ) : (
        <p className="field__hint">{t('avatar.selector.noCustom')}</p>
      )}
      <AvatarUploadPanel
        onSettled={custom.reload}
        onCompleted={(avatar) => {
          custom.add(avatar);
          onUploaded(avatar);
          // The new avatar joins the list above the panel, chosen, with its report: shown, not
          // left above the fold while the panel's copy is pushed below it.
          requestAnimationFrame(() =>
            document
              .querySelector(`.avatar-card[data-avatar="${CSS.escape(avatar.id)}"]`)
              ?.scrollIntoView?.({ block: 'start' }),
          );
        }}
      />
    </section>
  );
}
