import { useCallback, useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { routes, type Voice, type VoiceLanguage } from '@alma/protocol';
import { Icon } from '../../components/ui/Icon.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import {
  filterVoices,
  PREVIEW_LOAD_TIMEOUT_MS,
  type LanguageFilter,
} from '../../components/voice-selector/logic.ts';
import { VoiceUploadPanel } from '../../components/voice-selector/VoiceUploadPanel.tsx';
import { call } from '../../lib/api.ts';
import { subscriptionLimits } from '../../lib/limits.ts';
import { useSession } from '../../lib/session.ts';

type LoadState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; voices: Voice[] };

/**
 * Onboarding step 2 (spec §2): the real voice catalogue (GET /api/voices) as a compact radio list
 * with a language filter (the interface language first) and a play / stop preview per voice.
 * Below it, the custom voice upload (consent first): an uploaded voice is added and chosen.
 */
export function VoiceStep({
  headingRef,
  value,
  onChange,
}: {
  headingRef: Ref<HTMLHeadingElement>;
  value: string | null;
  onChange: (voice: Voice) => void;
}) {
  const { t, i18n } = useTranslation();
  const token = useSession((s) => s.token);
  const userId = useSession((s) => s.user?.id ?? null);
  const loadLimits = useCallback(
    async () => (userId ? (await subscriptionLimits.get(userId)).subscription : null),
    [userId],
  );
  const [load, setLoad] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [language, setLanguage] = useState<LanguageFilter>(i18n.language === 'en' ? 'inglés' : 'español');
  const [previewing, setPreviewing] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    call(routes.voices.list, {}, { signal: controller.signal })
      .then((res) => setLoad({ status: 'ready', voices: res.voices }))
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ status: 'error' });
      });
    return () => controller.abort();
  }, [attempt]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const voices = useMemo(() => (load.status === 'ready' ? load.voices : []), [load]);
  const shown = useMemo(
    () =>
      filterVoices(voices, {
        category: 'todos',
        language,
        query: '',
        favorites: [],
        recents: [],
        recommendedIds: null,
      }),
    [voices, language],
  );

  function stopPreview() {
    clearTimeout(timer.current);
    const el = audio.current;
    if (el) {
      el.pause();
      el.removeAttribute('src');
      el.load();
    }
    setPreviewing(null);
  }

  function togglePreview(voice: Voice) {
    if (previewing === voice.id) return stopPreview();
    stopPreview();
    const el = audio.current;
    if (!el) return;
    el.src = voice.previewUrl;
    setPreviewing(voice.id);
    timer.current = setTimeout(stopPreview, PREVIEW_LOAD_TIMEOUT_MS);
    el.play().catch(() => {
      if (el.getAttribute('src') === voice.previewUrl) stopPreview();
    });
  }

  const languages: LanguageFilter[] = ['todos', 'español', 'inglés'];
  const languageLabel = (l: LanguageFilter) =>
    t(`voiceSelector.languages.${l === 'español' ? 'es' : l === 'inglés' ? 'en' : 'todos'}`);
  const voiceLanguage = (l: VoiceLanguage) => t(`voices.languages.${l === 'español' ? 'es' : 'en'}`);

  return (
    <fieldset className="choice-fieldset">
      <legend>
        <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
          {t('onboarding.voiceTitle')}
        </h2>
        <span className="onboarding__step-text">{t('onboarding.voiceText')}</span>
      </legend>

      {load.status === 'loading' ? (
        <p className="onboarding__voice-status" role="status">
          <Spinner /> {t('onboarding.voicesLoading')}
        </p>
      ) : null}
      {load.status === 'error' ? (
        <div className="onboarding__voice-status">
          <p className="alert alert--error" role="alert">
            {t('voiceSelector.loadError')}
          </p>
          <button
            type="button"
            className="button button--ghost"
            onClick={() => {
              setLoad({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            <Icon name="refresh" size={16} />
            {t('voiceSelector.retry')}
          </button>
        </div>
      ) : null}

      {load.status === 'ready' ? (
        <>
          <label className="field onboarding__voice-filter">
            <span className="field__label">{t('voiceSelector.language')}</span>
            <select
              className="field__input"
              value={language}
              onChange={(e) => setLanguage(e.target.value as LanguageFilter)}
            >
              {languages.map((l) => (
                <option key={l} value={l}>
                  {languageLabel(l)}
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
                <button
                  type="button"
                  className="icon-button onboarding-voice__play"
                  aria-pressed={previewing === voice.id}
                  aria-label={
                    previewing === voice.id
                      ? t('voiceSelector.stopPreview', { name: voice.name })
                      : t('voiceSelector.playPreview', { name: voice.name })
                  }
                  onClick={() => togglePreview(voice)}
                >
                  <Icon name={previewing === voice.id ? 'stop' : 'play'} size={16} />
                </button>
              </div>
            ))}
          </div>
        </>
      ) : null}
      <audio ref={audio} onEnded={stopPreview} hidden />

      <VoiceUploadPanel
        token={token}
        loadLimits={loadLimits}
        onUploaded={({ voice }) => {
          subscriptionLimits.invalidate();
          // The new custom voice joins the list and becomes the choice (spec §2: a system voice or an uploaded one).
          setLoad((l) => (l.status === 'ready' ? { status: 'ready', voices: [...l.voices, voice] } : l));
          onChange(voice);
        }}
      />
    </fieldset>
  );
}
