import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { SYSTEM_AVATARS, SYSTEM_VOICES } from '../../../lib/catalog.ts';
import { savePreferences, usePreferences, usePreferencesOf } from '../../../lib/preferences.ts';
import { useSession } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';

/**
 * The options menu's "change avatar" and "change voice": the system catalogue as a radio grid,
 * saved to the account (PUT /api/users/preferences). Custom uploads, previews and the voice
 * filters of spec §2's selector modals come with the avatar and voice issues.
 */
export function PickerDialog({ kind, onClose }: { kind: 'avatar' | 'voice'; onClose: () => void }) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id ?? null);
  const prefs = usePreferencesOf(userId);
  const [value, setValue] = useState<string | null>(kind === 'avatar' ? prefs.avatar : prefs.voice);
  const [saving, setSaving] = useState(false);

  async function confirm() {
    if (!userId || !value) return onClose();
    setSaving(true);
    const patch =
      kind === 'avatar'
        ? { avatar: value, selectedAvatarId: value }
        : { voice: value, defaultVoiceId: value };
    try {
      await savePreferences(userId, patch);
    } catch {
      // Kept on this device; the account keeps the previous choice until the next save.
      usePreferences.getState().save(userId, kind === 'avatar' ? { avatar: value } : { voice: value });
      toast(t('errors.preferencesSave'), 'error');
    }
    setSaving(false);
    onClose();
  }

  const title = kind === 'avatar' ? t('chat.pickers.avatarTitle') : t('chat.pickers.voiceTitle');
  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={() => void confirm()}
      actions={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={!value || saving}>
            {t('common.confirm')}
          </button>
        </>
      }
    >
      <div className="picker-grid" role="radiogroup" aria-label={title}>
        {kind === 'avatar'
          ? SYSTEM_AVATARS.map((a) => (
              <label key={a.id} className="picker-card">
                <input
                  type="radio"
                  name="picker"
                  className="choice-card__input"
                  checked={value === a.id}
                  onChange={() => setValue(a.id)}
                />
                <AvatarBadge id={a.id} size={44} />
                <span className="picker-card__name">{t(`avatars.${a.id}.name`)}</span>
              </label>
            ))
          : SYSTEM_VOICES.map((v) => (
              <label key={v.id} className="picker-card">
                <input
                  type="radio"
                  name="picker"
                  className="choice-card__input"
                  checked={value === v.id}
                  onChange={() => setValue(v.id)}
                />
                <span className="picker-card__name">{t(`voices.${v.id}`)}</span>
                <span className="picker-card__meta">
                  {t(`voices.categories.${v.category}`)} · {t(`voices.languages.${v.language}`)}
                </span>
              </label>
            ))}
      </div>
    </Dialog>
  );
}
