import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { PLANS, REGISTRATION_PLANS, type FieldCode, type Plan } from '@alma/protocol';
import { Checkbox, PasswordField, TextField } from '../../components/ui/Field.tsx';
import { StepActions } from '../../components/ui/StepActions.tsx';
import { Steps } from '../../components/ui/Steps.tsx';
import { selectIsSignedIn, useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useFocusOnChange } from '../../lib/use-focus-on-change.ts';
import { AuthShell } from './components/AuthShell.tsx';
import { EmailField } from './components/EmailField.tsx';
import { OAuthButtons } from './components/OAuthButtons.tsx';
import type { AuthRules } from './client.ts';
import { authClient } from './server.ts';
import { useAuthFlow } from './store.ts';

type FieldName = 'name' | 'email' | 'password' | 'confirmPassword' | 'plan' | 'terms';
type Errors = Partial<Record<FieldName, FieldCode>>;

interface Form {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  plan: Plan;
  terms: boolean;
}

const STEP_FIELDS: FieldName[][] = [
  ['name', 'email'],
  ['password', 'confirmPassword'],
  ['plan', 'terms'],
];

/** Spec §5 Register: the rules of each step, as field codes. */
function validateStep(step: number, form: Form, rules: AuthRules): Errors {
  const errors: Errors = {};
  const put = (field: FieldName, code: FieldCode | null) => {
    if (code) errors[field] = code;
  };
  if (step === 0) {
    put('name', rules.name(form.name));
    put('email', rules.registerEmail(form.email));
  } else if (step === 1) {
    put('password', rules.newPassword(form.password));
    if (!form.confirmPassword) put('confirmPassword', 'confirmPasswordRequired');
    else if (form.confirmPassword !== form.password) put('confirmPassword', 'passwordMismatch');
  } else {
    if (!REGISTRATION_PLANS.includes(form.plan)) put('plan', 'planNotAvailable');
    if (!form.terms) put('terms', 'termsRequired');
  }
  return errors;
}

export function RegisterPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.register.title'));
  const navigate = useNavigate();
  // Only a visitor already signed in on arrival is sent on; signing up here navigates itself.
  const [signedInOnArrival] = useState(() => selectIsSignedIn(useSession.getState()));
  const submitting = useAuthFlow((s) => s.submitting);
  const failure = useAuthFlow((s) => s.error);
  const register = useAuthFlow((s) => s.register);
  const clearError = useAuthFlow((s) => s.clearError);

  const [step, setStep] = useState(0);
  const [form, setForm] = useState<Form>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
    plan: 'free',
    terms: false,
  });
  const [errors, setErrors] = useState<Errors>({});
  // Move focus to the new step's heading so screen readers announce it (not on first paint).
  const headingRef = useFocusOnChange<HTMLHeadingElement>(step);

  useEffect(() => {
    clearError();
  }, [clearError]);

  if (signedInOnArrival) return <Navigate to="/chat" replace />;

  function update<K extends keyof Form>(field: K, value: Form[K]) {
    setForm((f) => ({ ...f, [field]: value }));
    // Editing a field clears its error (spec §2).
    setErrors((e) => {
      if (!e[field]) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
    if (failure) clearError();
  }

  function focusFirstInvalid(found: Errors) {
    const first = STEP_FIELDS[step]?.find((f) => found[f]);
    if (first) document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function submit() {
    const user = await register({
      name: form.name.trim(),
      email: form.email.trim(),
      password: form.password,
      confirmPassword: form.confirmPassword,
      plan: form.plan,
      terms: true,
    });
    if (user) {
      void navigate('/onboarding', { replace: true, state: { userId: user.id, fromOAuth: false } });
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;
    // The rules come with the auth client, fetched as the page shows (./server.ts).
    const rules = await authClient.get().then(
      (client) => client.rules,
      () => null,
    );
    if (!rules) return;
    const found = validateStep(step, form, rules);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(found);
      return;
    }
    if (step < 2) setStep(step + 1);
    else void submit();
  }

  const err = (field: FieldName) => (errors[field] ? t(`validation.${errors[field]}`) : null);
  const stepLabels = [
    t('auth.register.steps.account'),
    t('auth.register.steps.password'),
    t('auth.register.steps.plan'),
  ];

  return (
    <AuthShell>
      <h1 className="auth-card__title">{t('auth.register.title')}</h1>
      <p className="auth-card__subtitle">{t('auth.register.subtitle')}</p>
      <Steps labels={stepLabels} current={step} label={t('auth.register.progress')} />

      {failure && step === 2 ? (
        <div className="error-card" role="alert">
          <h2 className="error-card__title">{t('auth.register.errorTitle')}</h2>
          <p>{failure}</p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void submit()}
            disabled={submitting}
          >
            {t('common.retry')}
          </button>
        </div>
      ) : null}

      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <h2 className="form__step-title" ref={headingRef} tabIndex={-1}>
          <span className="visually-hidden">{t('auth.register.stepOf', { step: step + 1, total: 3 })}: </span>
          {stepLabels[step]}
        </h2>

        {step === 0 ? (
          <>
            <TextField
              label={t('auth.register.name')}
              name="name"
              autoComplete="name"
              placeholder={t('auth.register.namePlaceholder')}
              value={form.name}
              onChange={(e) => update('name', e.target.value)}
              error={err('name')}
              required
            />
            <EmailField
              inputMode="email"
              value={form.email}
              onChange={(e) => update('email', e.target.value)}
              error={err('email')}
              required
            />
          </>
        ) : null}

        {step === 1 ? (
          <>
            <PasswordField
              label={t('auth.password')}
              name="password"
              autoComplete="new-password"
              value={form.password}
              onChange={(e) => update('password', e.target.value)}
              error={err('password')}
              hint={t('auth.register.passwordHint')}
              required
            />
            <PasswordField
              label={t('auth.register.confirmPassword')}
              name="confirmPassword"
              autoComplete="new-password"
              value={form.confirmPassword}
              onChange={(e) => update('confirmPassword', e.target.value)}
              error={err('confirmPassword')}
              required
            />
          </>
        ) : null}

        {step === 2 ? (
          <>
            <fieldset className="plan-choice" aria-describedby="plan-maintenance">
              <legend className="field__label">{t('auth.register.plan')}</legend>
              {PLANS.map((plan) => {
                const available = REGISTRATION_PLANS.includes(plan);
                return (
                  <label key={plan} className={`plan-option ${available ? '' : 'plan-option--disabled'}`}>
                    <input
                      type="radio"
                      name="plan"
                      value={plan}
                      checked={form.plan === plan}
                      disabled={!available}
                      onChange={() => update('plan', plan)}
                    />
                    <span className="plan-option__name">{t(`auth.register.${plan}`)}</span>
                    <span className="plan-option__detail">
                      {available ? t('auth.register.freeDetail') : t('auth.register.unavailable')}
                    </span>
                  </label>
                );
              })}
              <p className="field__hint" id="plan-maintenance">
                {t('auth.register.maintenance')}
              </p>
              {err('plan') ? <p className="field__error">{err('plan')}</p> : null}
            </fieldset>
            <Checkbox
              name="terms"
              checked={form.terms}
              onChange={(e) => update('terms', e.target.checked)}
              error={err('terms')}
              label={
                <>
                  {t('auth.register.termsPrefix')}{' '}
                  <Link to="/terms" target="_blank" rel="noopener" className="link">
                    {t('auth.register.termsLink')}
                  </Link>
                </>
              }
            />
          </>
        ) : null}

        <StepActions
          step={step}
          onBack={() => {
            setErrors({});
            setStep(step - 1);
          }}
          submitLabel={
            step < 2
              ? t('common.next')
              : submitting
                ? t('auth.register.submitting')
                : t('auth.register.submit')
          }
          busy={submitting}
        />
      </form>

      {step === 0 ? <OAuthButtons mode="register" /> : null}

      <p className="auth-card__footer">
        {t('auth.register.haveAccount')}{' '}
        <Link to="/login" className="link">
          {t('auth.register.login')}
        </Link>
      </p>
    </AuthShell>
  );
}
