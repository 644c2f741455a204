import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voice, VoiceLanguage } from '@alma/protocol';
import { Icon } from '../../components/ui/Icon.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { subscriptionLimits } from '../../lib/limits.ts';
import { useSession } from '../../lib/session.ts';
import { useVoiceLabels } from './labels.ts';
import { filterVoices, type LanguageFilter } from './logic.ts';
import { PreviewAudio, PreviewButton } from './PreviewButton.tsx';
import { useVoices } from './store.ts';
import { VoiceUploadPanel } from './VoiceUploadPanel.tsx';
import './voice.css';
import '../../styles/choices.css';

/**
 * The onboarding's voice step (spec §2): the real catalogue as a compact radio list with a
 * language filter (the interface language first) and a preview per voice, then the custom voice
 * upload (consent first): an uploaded voice is added and chosen. The choice is reported, not
 * saved: the onboarding saves it with the rest when it finishes.
 */
export function EmbeddedVoicePicker({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (voice: Voice) => void;
}) {
  const { t, i18n } = useTranslation();
  const labels = useVoiceLabels();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.user?.id ?? null);
  const catalog = useVoices((s) => s.catalog);
  const [language, setLanguage] = useState<LanguageFilter>(i18n.language === 'en' ? 'inglés' : 'español');
  const loadLimits = useCallback(
    async () => (userId ? (await subscriptionLimits.get(userId)).subscription : null),
    [userId],
  );

  useEffect(() => void useVoices.getState().load(userId), [userId]);
  useEffect(() => () => useVoices.getState().stopPreview(), []);

  const shown = useMemo(
    () =>
      filterVoices(catalog.voices, {
        category: 'todos',
        language,
        query: '',
        favorites: [],
        recents: [],
        recommendedIds: null,
      }),
    [catalog.voices, language],
  );
  const voiceLanguage = (l: VoiceLanguage) => t(`voices.languages.${l === 'español' ? 'es' : 'en'}`);

  return (
    <>
      {catalog.status === 'loading' || catalog.status === 'idle' ? (
        <p className="onboarding__voice-status" role="status">
          <Spinner /> {t('onboarding.voicesLoading')}
        </p>
      ) : null}
      {catalog.status === 'error' ? (
        <div className="onboarding__voice-status">
          <p className="alert alert--error" role="alert">
            {t('voiceSelector.loadError')}
          </p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => void useVoices.getState().load(userId)}
          >
            <Icon name="refresh" size={16} />
            {t('voiceSelector.retry')}
          </button>
        </div>
      ) : null}

      {catalog.status === 'ready' ? (
        <>
          <label className="field onboarding__voice-filter">
            <span className="field__label">{t('voiceSelector.language')}</span>
            <select
              className="field__input"
              value={language}
              onChange={(e) => setLanguage(e.target.value as LanguageFilter)}
            >
              {(['todos', 'español', 'inglés'] as const).map((l) => (
                <option key={l} value={l}>
                  {labels.language(l)}
                </option>
              ))}
            </select>
          </label>
          <div
            className="choice-grid choice-grid--voices"
            role="radiogroup"
            aria-label={t('onboarding.voiceList')}
          >
            {shown.map((voice) => (
              <div key={voice.id} className="choice-card choice-card--row onboarding-voice">
                <label className="onboarding-voice__choice">
                  <input
                    type="radio"
                    name="voice"
                    value={voice.id}
                    checked={value === voice.id}
                    onChange={() => onChange(voice)}
                    className="choice-card__input"
                  />
                  <span className="choice-card__name">{voice.name}</span>
                  <span className="choice-card__meta">
                    {t(`voices.categories.${voice.category}`)} · {voiceLanguage(voice.language)}
                  </span>
                </label>
                <PreviewButton voice={voice} className="onboarding-voice__play" size={16} />
              </div>
            ))}
          </div>
        </>
      ) : null}
      <PreviewAudio />

      <VoiceUploadPanel
        token={token}
        loadLimits={loadLimits}
        onUploaded={({ voice }) => {
          // The new custom voice joins the list and becomes the choice (spec §2).
          useVoices.getState().add(voice);
          onChange(voice);
        }}
      />
    </>
  );
}
