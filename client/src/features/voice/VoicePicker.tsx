import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voice } from '@alma/protocol';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { subscriptionLimits } from '../../lib/limits.ts';
import { usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { initialFilters, reduceFilters } from './filters.ts';
import { categoryFilters, clampPage, filterVoices, pageCount, pageOf } from './logic.ts';
import { PreviewAudio } from './PreviewButton.tsx';
import { useVoices } from './store.ts';
import { VoiceCards } from './VoiceCards.tsx';
import { VoiceFilters } from './VoiceFilters.tsx';
import { VoicePager } from './VoicePager.tsx';
import { VoiceUploadPanel } from './VoiceUploadPanel.tsx';
import './voice.css';

interface Props {
  onClose: () => void;
  /** The chat session the choice applies to (POST /api/voices/select `sessionId`). */
  sessionId: string | null;
}

/**
 * The chat's voice selector (spec §2 "Voice selector modal", §4 "Voice selection", §5 "Voice
 * list"), on the app's Dialog: category and language filters, search, eight voices a page with
 * at most five page buttons, favourites and the last ten recents, a preview with a play / stop
 * toggle and a volume slider, the user's own voices with their upload, and a confirmation bar.
 */
export function VoicePickerModal({ onClose, sessionId }: Props) {
  const { t } = useTranslation();
  const userId = useSession((s) => s.user?.id ?? null);
  const token = useSession((s) => s.token);
  const { voice: current, avatar } = usePreferencesOf(userId);
  const catalog = useVoices((s) => s.catalog);
  const favorites = useVoices((s) => s.favorites);
  const recents = useVoices((s) => s.recents);
  const recommended = useVoices((s) => s.recommended);
  const [filters, change] = useReducer(reduceFilters, initialFilters);
  const [pending, setPending] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const { load, loadRecommended } = useVoices.getState();
    void load(userId);
    void loadRecommended(avatar);
  }, [userId, avatar]);
  useEffect(() => () => useVoices.getState().stopPreview(), []);

  const voices = catalog.voices;
  const categories = useMemo(() => categoryFilters(voices), [voices]);
  const filtered = useMemo(
    () =>
      filterVoices(voices, {
        ...filters,
        favorites,
        recents,
        recommendedIds: recommended?.avatarId === avatar ? recommended.ids : null,
      }),
    [voices, filters, favorites, recents, recommended, avatar],
  );
  const pages = pageCount(filtered.length);
  const page = clampPage(filters.page, filtered.length);
  const pendingVoice = pending ? voices.find((v) => v.id === pending) : undefined;
  const ready = catalog.status === 'ready';
  const custom = filters.category === 'personalizadas';

  async function confirm(voice: Voice) {
    setSaving(true);
    const saved = await useVoices.getState().choose(voice.id, { userId, sessionId });
    if (!saved) toast(t('errors.preferencesSave'), 'error');
    setSaving(false);
    onClose();
  }

  const loadLimits = useCallback(
    async () => (userId ? (await subscriptionLimits.get(userId)).subscription : null),
    [userId],
  );

  return (
    <Dialog
      title={t('chat.pickers.voiceTitle')}
      onClose={onClose}
      className="voice-selector"
      actions={
        <>
          {ready && pages > 1 ? (
            <VoicePager page={page} pages={pages} onPage={(p) => change({ type: 'page', page: p })} />
          ) : null}
          {pendingVoice ? (
            <div className="voice-confirm" role="region" aria-label={t('voiceSelector.confirmBar')}>
              <span className="voice-confirm__text">
                {t('voiceSelector.pending', { name: pendingVoice.name })}
              </span>
              <div className="voice-confirm__actions">
                <button type="button" className="button button--ghost" onClick={() => setPending(null)}>
                  {t('common.cancel')}
                </button>
                <button
                  type="button"
                  className="button button--primary"
                  disabled={saving}
                  onClick={() => void confirm(pendingVoice)}
                >
                  {t('common.confirm')}
                </button>
              </div>
            </div>
          ) : null}
          <PreviewAudio />
        </>
      }
    >
      <VoiceFilters filters={filters} categories={categories} onChange={change} />
      <div className="voice-selector__body" aria-live="polite" aria-busy={catalog.status === 'loading'}>
        {custom && ready ? (
          <VoiceUploadPanel
            token={token}
            loadLimits={loadLimits}
            onUploaded={({ voice }) => {
              useVoices.getState().add(voice);
              setPending(voice.id);
            }}
          />
        ) : null}
        {catalog.status === 'loading' || catalog.status === 'idle' ? (
          <div className="voice-selector__state">
            <Spinner />
          </div>
        ) : catalog.status === 'error' ? (
          <div className="voice-selector__state" role="alert">
            <p>{t('voiceSelector.loadError')}</p>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => void useVoices.getState().load(userId)}
            >
              {t('voiceSelector.retry')}
            </button>
          </div>
        ) : custom && filtered.length === 0 ? (
          <div className="voice-selector__state">
            <Icon name="upload" />
            <p className="voice-selector__state-title">{t('voiceSelector.customEmptyTitle')}</p>
            <p>{t('voiceSelector.customEmpty')}</p>
          </div>
        ) : filtered.length === 0 ? (
          <div className="voice-selector__state">
            <p>
              {filters.category === 'favoritas' && !filters.query
                ? t('voiceSelector.noFavorites')
                : filters.category === 'recientes' && !filters.query
                  ? t('voiceSelector.noRecents')
                  : t('voiceSelector.noResults')}
            </p>
          </div>
        ) : (
          <VoiceCards
            voices={pageOf(filtered, page)}
            current={current}
            pending={pending}
            onPick={setPending}
          />
        )}
      </div>
    </Dialog>
  );
}
