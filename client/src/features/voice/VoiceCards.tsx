import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voice } from '@alma/protocol';
import { Icon } from '../../components/ui/Icon.tsx';
import { errorText } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { useVoiceLabels } from './labels.ts';
import { PreviewButton } from './PreviewButton.tsx';
import { useVoices } from './store.ts';

interface Props {
  voices: Voice[];
  /** The account's voice (badged "current"). */
  current: string | null;
  /** The one picked and waiting for confirmation. */
  pending: string | null;
  onPick: (id: string | null) => void;
}

/**
 * The picker's page of voices (spec §5 Voice list): each card picks the voice, previews it,
 * favourites it and — for the user's own voices — deletes it after a confirmation.
 */
export function VoiceCards({ voices, current, pending, onPick }: Props) {
  const { t } = useTranslation();
  const labels = useVoiceLabels();
  const favorites = useVoices((s) => s.favorites);
  const toggleFavorite = useVoices((s) => s.toggleFavorite);
  const remove = useVoices((s) => s.remove);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function deleteVoice(voice: Voice) {
    setDeleting(true);
    try {
      await remove(voice);
      if (pending === voice.id) onPick(null);
      toast(t('voiceSelector.deleted'), 'success');
    } catch (error) {
      toast(errorText(error, t('voiceSelector.deleteFailed')), 'error');
    } finally {
      setDeleting(false);
      setConfirming(null);
    }
  }

  return (
    <ul className="voice-list" aria-label={t('voiceSelector.list')}>
      {voices.map((v) => {
        const chosen = (pending ?? current) === v.id;
        const favorite = favorites.includes(v.id);
        return (
          <li key={v.id} className="voice-card" data-selected={chosen} data-voice-id={v.id}>
            <button
              type="button"
              className="voice-card__main"
              aria-pressed={chosen}
              onClick={() => onPick(v.id === current ? null : v.id)}
            >
              <span className="voice-card__name">
                {v.name}
                {current === v.id ? (
                  <span className="voice-card__badge">{t('voiceSelector.current')}</span>
                ) : null}
              </span>
              <span className="voice-card__meta">
                {v.isCustom ? `${t('voiceSelector.custom')} · ` : ''}
                {labels.category(v.category)} · {labels.language(v.language)}
                {v.recommended ? ` · ${t('voiceSelector.recommended')}` : ''}
              </span>
              <span className="voice-card__desc">{v.description}</span>
            </button>
            <PreviewButton voice={v} className="voice-card__play" />
            <button
              type="button"
              className="icon-button voice-card__fav"
              aria-pressed={favorite}
              aria-label={t('voiceSelector.favorite', { name: v.name })}
              onClick={() => toggleFavorite(v.id)}
            >
              <Icon name="heart" />
            </button>
            {v.isCustom ? (
              <button
                type="button"
                className="icon-button voice-card__delete"
                aria-label={t('voiceSelector.delete', { name: v.name })}
                onClick={() => setConfirming(v.id)}
              >
                <Icon name="trash" />
              </button>
            ) : null}
            {confirming === v.id ? (
              <div
                className="voice-card__confirm"
                role="alertdialog"
                aria-label={t('voiceSelector.delete', { name: v.name })}
              >
                <span>{t('voiceSelector.deleteConfirm', { name: v.name })}</span>
                <button
                  type="button"
                  className="button button--ghost"
                  autoFocus
                  onClick={() => setConfirming(null)}
                >
                  {t('common.cancel')}
                </button>
                <button
                  type="button"
                  className="button button--danger"
                  disabled={deleting}
                  onClick={() => void deleteVoice(v)}
                >
                  {t('voiceSelector.deleteYes')}
                </button>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
