import { useTranslation } from 'react-i18next';

/**
 * The buttons under a step-by-step form: Back (from the second step on) and the submit button.
 * While `busy`, both are disabled and the submit button is marked busy.
 */
export function StepActions({
  step,
  onBack,
  submitLabel,
  busy,
}: {
  step: number;
  onBack: () => void;
  submitLabel: string;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="form__actions">
      {step > 0 ? (
        <button type="button" className="button button--ghost" onClick={onBack} disabled={busy}>
          {t('common.back')}
        </button>
      ) : null}
      <button type="submit" className="button button--primary form__primary" disabled={busy} aria-busy={busy}>
        {submitLabel}
      </button>
    </div>
  );
}
