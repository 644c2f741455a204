import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { FieldCode } from '@alma/protocol';
import { PasswordField } from '../../components/ui/Field.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import type { AuthRules } from './client.ts';
import { AuthShell } from './components/AuthShell.tsx';
import { authClient, failureText } from './server.ts';
import { startSession } from './store.ts';

/** The password rules of spec §5 Register step 2, as field codes. */
export function resetErrors(password: string, confirm: string, rules: AuthRules) {
  const errors: { password?: FieldCode; confirmPassword?: FieldCode } = {};
  const code = rules.newPassword(password);
  if (code) errors.password = code;
  if (!confirm) errors.confirmPassword = 'confirmPasswordRequired';
  else if (confirm !== password) errors.confirmPassword = 'passwordMismatch';
  return errors;
}

/**
 * The emailed reset link (/reset-password/:token): a new password and its confirmation →
 * PUT /auth/resetpassword/:token, which signs the user in; an invalid or used link says so and
 * offers a new one.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.reset.title'));
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<ReturnType<typeof resetErrors>>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; linkInvalid: boolean } | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const client = await authClient.get().catch(() => null);
    if (!client) {
      setFailure({ message: t('errors.connectionFailed'), linkInvalid: false });
      return;
    }
    const { ApiError, call, routes, rules, usePreferences } = client;
    const found = resetErrors(password, confirm, rules);
    setErrors(found);
    if (found.password || found.confirmPassword) {
      document
        .querySelector<HTMLElement>(`[name="${found.password ? 'password' : 'confirmPassword'}"]`)
        ?.focus();
      return;
    }
    setSending(true);
    setFailure(null);
    try {
      const session = await call(routes.account.resetPassword, {
        params: { resetToken: token },
        body: { password },
      });
      await startSession(session, true);
      const done = usePreferences.getState().get(session.user.id).onboardingCompleted;
      void navigate(done ? '/chat' : '/onboarding', {
        replace: true,
        state: done ? undefined : { userId: session.user.id, fromOAuth: false },
      });
    } catch (error) {
      // A malformed token fails the route's own validation: the same as an unknown one.
      const linkInvalid =
        error instanceof ApiError &&
        (error.code === 'link_invalid' ||
          (error.code === 'validation_failed' && error.fieldErrors.some((f) => f.field === 'resetToken')));
      setFailure({
        message: linkInvalid ? t('errors.link_invalid') : await failureText(error, t('errors.general')),
        linkInvalid,
      });
      setSending(false);
    }
  }

  return (
    <AuthShell>
      <h1 className="auth-card__title">{t('auth.reset.title')}</h1>
      <p className="auth-card__subtitle">{t('auth.reset.text')}</p>
      {failure ? (
        <div className="alert alert--error" role="alert">
          <p>{failure.message}</p>
          {failure.linkInvalid ? (
            <Link to="/forgot-password" className="link">
              {t('auth.reset.requestNew')}
            </Link>
          ) : null}
        </div>
      ) : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <PasswordField
          label={t('auth.reset.newPassword')}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setErrors((s) => ({ ...s, password: undefined }));
          }}
          error={errors.password ? t(`validation.${errors.password}`) : null}
          hint={t('auth.register.passwordHint')}
          required
        />
        <PasswordField
          label={t('auth.register.confirmPassword')}
          name="confirmPassword"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            setErrors((s) => ({ ...s, confirmPassword: undefined }));
          }}
          error={errors.confirmPassword ? t(`validation.${errors.confirmPassword}`) : null}
          required
        />
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={sending}
          aria-busy={sending}
        >
          {sending ? t('auth.reset.submitting') : t('auth.reset.submit')}
        </button>
      </form>
      <p className="auth-card__footer">
        <Link to="/login" className="link">
          {t('auth.forgot.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
