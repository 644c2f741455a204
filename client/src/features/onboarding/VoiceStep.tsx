import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voice } from '@alma/protocol';

/** The voice step's picker, composed in by app/ from the voice feature (its embedded picker). */
export type RenderVoicePicker = (props: {
  value: string | null;
  onChange: (voice: Voice) => void;
}) => ReactNode;

/** Onboarding step 2 (spec §2): choose a voice — a system one or an uploaded one. */
export function VoiceStep({
  headingRef,
  value,
  onChange,
  renderPicker,
}: {
  headingRef: Ref<HTMLHeadingElement>;
  value: string | null;
  onChange: (voice: Voice) => void;
  renderPicker?: RenderVoicePicker;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="choice-fieldset">
      <legend>
        <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
          {t('onboarding.voiceTitle')}
        </h2>
        <span className="onboarding__step-text">{t('onboarding.voiceText')}</span>
      </legend>
      {renderPicker?.({ value, onChange })}
    </fieldset>
  );
}
