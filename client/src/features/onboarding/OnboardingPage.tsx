import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { FieldCode } from '@alma/protocol';
import { AvatarBadge } from '../../components/ui/AvatarBadge.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { LanguageToggle } from '../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { findAvatar, findVoice, SYSTEM_AVATARS, SYSTEM_VOICES } from '../../lib/catalog.ts';
import { usePreferences, usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const STEPS = ['avatar', 'voice', 'finish'] as const;

/**
 * Onboarding (spec §2): avatar → voice → finish. Advancing needs an avatar, finishing needs a
 * voice; completion is stored per user and leads to /chat.
 */
export function OnboardingPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('onboarding.title'));
  const navigate = useNavigate();
  const location = useLocation();
  const user = useSession((s) => s.user);
  const userId = (location.state as { userId?: string } | null)?.userId ?? user?.id ?? null;
  const saved = usePreferencesOf(userId);
  const save = usePreferences((s) => s.save);

  const [step, setStep] = useState(0);
  const [avatar, setAvatar] = useState<string | null>(findAvatar(saved.avatar)?.id ?? null);
  const [voice, setVoice] = useState<string | null>(findVoice(saved.voice)?.id ?? null);
  const [error, setError] = useState<FieldCode | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  // A missing user id sends the user to /login (spec §2).
  if (!userId) return <Navigate to="/login" replace />;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (step === 0) {
      if (!avatar) return setError('selectOrUploadAvatar');
      setError(null);
      setStep(1);
    } else if (step === 1) {
      if (!voice) return setError('selectOrUploadVoice');
      setError(null);
      setStep(2);
    } else if (userId && avatar && voice) {
      save(userId, { avatar, voice, onboardingCompleted: true });
      void navigate('/chat', { replace: true });
    }
  }

  const chosenAvatar = findAvatar(avatar);
  const chosenVoice = findVoice(voice);
  const avatarName = chosenAvatar ? t(`avatars.${chosenAvatar.id}.name`) : '';
  const voiceName = chosenVoice ? t(`voices.${chosenVoice.id}`) : '';

  return (
    <div className="onboarding-page">
      <header className="topbar">
        <Logo />
        <div className="topbar__actions">
          <LanguageToggle />
          <ThemeToggle />
        </div>
      </header>
      <main id="main" className="onboarding">
        <h1 className="onboarding__title">{t('onboarding.title')}</h1>
        {user ? <p className="onboarding__welcome">{t('onboarding.welcome', { name: user.name })}</p> : null}

        <ol className="steps" aria-label={t('onboarding.progress')}>
          {STEPS.map((s, index) => (
            <li
              key={s}
              className={`steps__item ${index < step ? 'steps__item--done' : ''} ${index === step ? 'steps__item--current' : ''}`}
              aria-current={index === step ? 'step' : undefined}
            >
              <span className="steps__number" aria-hidden="true">
                {index < step ? <Icon name="check" size={14} /> : index + 1}
              </span>
              <span className="steps__label">{t(`onboarding.steps.${s}`)}</span>
            </li>
          ))}
        </ol>

        <form className="onboarding__panel" onSubmit={onSubmit} noValidate>
          {step === 0 ? (
            <fieldset className="choice-fieldset">
              <legend>
                <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
                  {t('onboarding.avatarTitle')}
                </h2>
                <span className="onboarding__step-text">{t('onboarding.avatarText')}</span>
              </legend>
              <div className="choice-grid" aria-label={t('onboarding.avatarList')} role="radiogroup">
                {SYSTEM_AVATARS.map((a) => (
                  <label key={a.id} className="choice-card">
                    <input
                      type="radio"
                      name="avatar"
                      value={a.id}
                      checked={avatar === a.id}
                      onChange={() => {
                        setAvatar(a.id);
                        setError(null);
                      }}
                      className="choice-card__input"
                    />
                    <AvatarBadge id={a.id} size={64} />
                    <span className="choice-card__name">{t(`avatars.${a.id}.name`)}</span>
                    <span className="choice-card__meta">{t(`onboarding.categories.${a.category}`)}</span>
                    <span className="choice-card__text">{t(`avatars.${a.id}.description`)}</span>
                  </label>
                ))}
              </div>
              <div className="upload-soon">
                <button
                  type="button"
                  className="button button--ghost"
                  disabled
                  aria-describedby="avatar-upload-soon"
                >
                  <Icon name="upload" size={18} />
                  {t('onboarding.uploadAvatar')}
                </button>
                <span id="avatar-upload-soon" className="field__hint">
                  {t('onboarding.uploadSoon')}
                </span>
              </div>
            </fieldset>
          ) : null}

          {step === 1 ? (
            <fieldset className="choice-fieldset">
              <legend>
                <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
                  {t('onboarding.voiceTitle')}
                </h2>
                <span className="onboarding__step-text">{t('onboarding.voiceText')}</span>
              </legend>
              <div
                className="choice-grid choice-grid--voices"
                aria-label={t('onboarding.voiceList')}
                role="radiogroup"
              >
                {SYSTEM_VOICES.map((v) => (
                  <label key={v.id} className="choice-card choice-card--row">
                    <input
                      type="radio"
                      name="voice"
                      value={v.id}
                      checked={voice === v.id}
                      onChange={() => {
                        setVoice(v.id);
                        setError(null);
                      }}
                      className="choice-card__input"
                    />
                    <span className="voice-icon" aria-hidden="true">
                      <Icon name="wave" />
                    </span>
                    <span className="choice-card__name">{t(`voices.${v.id}`)}</span>
                    <span className="choice-card__meta">
                      {t(`voices.categories.${v.category}`)} · {t(`voices.languages.${v.language}`)}
                    </span>
                  </label>
                ))}
              </div>
              <div className="upload-soon">
                <button
                  type="button"
                  className="button button--ghost"
                  disabled
                  aria-describedby="voice-upload-soon"
                >
                  <Icon name="upload" size={18} />
                  {t('onboarding.uploadVoice')}
                </button>
                <span id="voice-upload-soon" className="field__hint">
                  {t('onboarding.uploadSoon')}
                </span>
              </div>
            </fieldset>
          ) : null}

          {step === 2 ? (
            <div className="onboarding__finish">
              <AvatarBadge id={avatar} size={96} />
              <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
                {t('onboarding.finishTitle')}
              </h2>
              <p>{t('onboarding.finishText', { avatar: avatarName, voice: voiceName })}</p>
            </div>
          ) : null}

          <p className="alert alert--error" role="alert" hidden={!error}>
            {error ? t(`validation.${error}`) : null}
          </p>

          <div className="form__actions">
            {step > 0 ? (
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  setError(null);
                  setStep(step - 1);
                }}
              >
                {t('common.back')}
              </button>
            ) : null}
            <button type="submit" className="button button--primary form__primary">
              {step < 2 ? t('common.next') : t('onboarding.finish')}
            </button>
          </div>
        </form>
      </main>
    </div>
  );
}
