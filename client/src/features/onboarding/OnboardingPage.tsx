import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import type { FieldCode, Voice } from '@alma/protocol';
import { AvatarBadge } from '../../components/ui/AvatarBadge.tsx';
import { PageShell } from '../../components/ui/PageShell.tsx';
import { StepActions } from '../../components/ui/StepActions.tsx';
import { Steps } from '../../components/ui/Steps.tsx';
import { findAvatar, SYSTEM_AVATARS } from '../../lib/catalog.ts';
import { errorText } from '../../lib/api.ts';
import { savePreferences, usePreferencesOf } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useFocusOnChange } from '../../lib/use-focus-on-change.ts';
import { ChoiceStep } from './ChoiceStep.tsx';
import { VoiceStep, type RenderVoicePicker } from './VoiceStep.tsx';
import './onboarding.css';

const STEPS = ['avatar', 'voice', 'finish'] as const;

/** The avatar step's picker, composed in by app/ from the avatar feature (embedded selector). */
export type RenderAvatarPicker = (props: {
  value: string | null;
  onChange: (id: string) => void;
}) => ReactNode;

/** Route state (spec §2): who is being onboarded, and whether they came from an outside provider. */
interface OnboardingState {
  userId?: string;
  fromOAuth?: boolean;
}

/**
 * Onboarding (spec §2): avatar → voice → finish. Advancing needs an avatar, finishing needs a
 * voice; completion is stored per user and leads to /chat. The avatar step shows the embedded
 * avatar selector with a live 3D preview when app/ provides it, else a plain grid; the voice step
 * shows the voice feature's embedded picker, composed in by app/ the same way.
 */
export function OnboardingPage({
  renderAvatarPicker,
  renderVoicePicker,
}: {
  renderAvatarPicker?: RenderAvatarPicker;
  renderVoicePicker?: RenderVoicePicker;
}) {
  const { t } = useTranslation();
  useDocumentTitle(t('onboarding.title'));
  const navigate = useNavigate();
  const location = useLocation();
  const user = useSession((s) => s.user);
  const routeState = location.state as OnboardingState | null;
  const userId = routeState?.userId ?? user?.id ?? null;
  const saved = usePreferencesOf(userId);

  const [step, setStep] = useState(0);
  const [avatar, setAvatar] = useState<string | null>(findAvatar(saved.avatar)?.id ?? null);
  const [voice, setVoice] = useState<string | null>(saved.voice);
  const [voiceName, setVoiceName] = useState<string | null>(null);
  const [error, setError] = useState<FieldCode | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const headingRef = useFocusOnChange<HTMLHeadingElement>(step);

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
    } else if (userId && avatar && voice && !saving) {
      void finish(userId, avatar, voice);
    }
  }

  /** Completion is saved to the account (PUT /api/users/preferences), then /chat. */
  async function finish(id: string, avatarId: string, voiceId: string) {
    setSaving(true);
    setSaveError(null);
    try {
      await savePreferences(id, {
        avatar: avatarId,
        voice: voiceId,
        selectedAvatarId: avatarId,
        defaultVoiceId: voiceId,
        onboardingCompleted: true,
      });
      void navigate('/chat', { replace: true });
    } catch (caught) {
      setSaveError(errorText(caught, t('errors.preferencesSave')));
      setSaving(false);
    }
  }

  const chosenAvatar = findAvatar(avatar);
  const avatarName = chosenAvatar ? t(`avatars.${chosenAvatar.id}.name`) : '';

  function chooseAvatar(id: string) {
    setAvatar(id);
    setError(null);
  }

  function chooseVoice(chosen: Voice) {
    setVoice(chosen.id);
    setVoiceName(chosen.name);
    setError(null);
  }

  return (
    <PageShell className="onboarding-page">
      <main id="main" className="onboarding" data-from-oauth={routeState?.fromOAuth ? 'true' : undefined}>
        <h1 className="onboarding__title">{t('onboarding.title')}</h1>
        {user ? <p className="onboarding__welcome">{t('onboarding.welcome', { name: user.name })}</p> : null}

        <Steps
          labels={STEPS.map((s) => t(`onboarding.steps.${s}`))}
          current={step}
          label={t('onboarding.progress')}
          checkDone
        />

        <form className="onboarding__panel" onSubmit={onSubmit} noValidate>
          {step === 0 && renderAvatarPicker ? (
            <fieldset className="choice-fieldset">
              <legend>
                <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
                  {t('onboarding.avatarTitle')}
                </h2>
                <span className="onboarding__step-text">{t('onboarding.avatarText')}</span>
              </legend>
              {renderAvatarPicker({ value: avatar, onChange: chooseAvatar })}
            </fieldset>
          ) : null}
          {step === 0 && !renderAvatarPicker ? (
            <ChoiceStep
              name="avatar"
              headingRef={headingRef}
              title={t('onboarding.avatarTitle')}
              text={t('onboarding.avatarText')}
              listLabel={t('onboarding.avatarList')}
              gridClassName="choice-grid"
              cardClassName="choice-card"
              items={SYSTEM_AVATARS}
              value={avatar}
              onChange={chooseAvatar}
              renderCard={(a) => (
                <>
                  <AvatarBadge id={a.id} size={64} />
                  <span className="choice-card__name">{t(`avatars.${a.id}.name`)}</span>
                  <span className="choice-card__meta">{t(`onboarding.categories.${a.category}`)}</span>
                  <span className="choice-card__text">{t(`avatars.${a.id}.description`)}</span>
                </>
              )}
              uploadLabel={t('onboarding.uploadAvatar')}
            />
          ) : null}

          {step === 1 ? (
            <VoiceStep
              headingRef={headingRef}
              value={voice}
              onChange={chooseVoice}
              renderPicker={renderVoicePicker}
            />
          ) : null}

          {step === 2 ? (
            <div className="onboarding__finish">
              <AvatarBadge id={avatar} size={96} />
              <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
                {t('onboarding.finishTitle')}
              </h2>
              <p>{t('onboarding.finishText', { avatar: avatarName, voice: voiceName ?? voice ?? '' })}</p>
            </div>
          ) : null}

          <p className="alert alert--error" role="alert" hidden={!error && !saveError}>
            {error ? t(`validation.${error}`) : saveError}
          </p>

          <StepActions
            step={step}
            onBack={() => {
              setError(null);
              setSaveError(null);
              setStep(step - 1);
            }}
            submitLabel={step < 2 ? t('common.next') : t('onboarding.finish')}
            busy={saving}
          />
        </form>
      </main>
    </PageShell>
  );
}
