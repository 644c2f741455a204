import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthShell } from './components/AuthShell.tsx';
import { EmailField } from './components/EmailField.tsx';
import { authClient, failureText } from './server.ts';
import { rememberedEmail } from './store.ts';

/**
 * Password recovery: POST /auth/forgotpassword, then a neutral confirmation — the server answers
 * the same whether or not the email has an account, and so does this page.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.forgot.title'));
  const [email, setEmail] = useState(rememberedEmail);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const rules = authClient.use()?.rules;
  const code = rules ? rules.loginEmail(email) : null;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (code || sending) return;
    setSending(true);
    setFailure(null);
    try {
      // Sent before the rules were here: check now (the field shows why once touched).
      const { call, routes, rules: loaded } = await authClient.get();
      if (loaded.loginEmail(email)) return;
      await call(routes.account.forgotPassword, { body: { email } });
      setSent(true);
    } catch (error) {
      setFailure(await failureText(error, t('errors.general')));
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthShell>
      <h1 className="auth-card__title">{t('auth.forgot.title')}</h1>
      {sent ? (
        <div className="alert alert--success" role="status">
          <p>{t('auth.forgot.sent', { email: email.trim() })}</p>
          <p className="muted">{t('auth.forgot.sentHint')}</p>
        </div>
      ) : (
        <>
          <p className="auth-card__subtitle">{t('auth.forgot.text')}</p>
          {failure ? (
            <div className="alert alert--error" role="alert">
              {failure}
            </div>
          ) : null}
          <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
            <EmailField
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setFailure(null);
              }}
              onBlur={() => setTouched(true)}
              error={touched && code ? t(`validation.${code}`) : null}
            />
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={sending}
              aria-busy={sending}
            >
              {sending ? t('auth.forgot.sending') : t('auth.forgot.submit')}
            </button>
          </form>
        </>
      )}
      <p className="auth-card__footer">
        <Link to="/login" className="link">
          {t('auth.forgot.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
