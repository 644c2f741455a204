import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoginBodySchema } from '@alma/protocol';
import { TextField } from '../../components/ui/Field.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { fieldError } from '../../lib/validation.ts';
import { AuthShell } from './components/AuthShell.tsx';
import { rememberedEmail } from './store.ts';

/**
 * Password recovery. The server has no recovery route yet (spec §7 POST /auth/forgotpassword
 * comes later), so submitting says so plainly and points to the contact page.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.forgot.title'));
  const [email, setEmail] = useState(rememberedEmail);
  const [touched, setTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const code = fieldError(LoginBodySchema.shape.email, email);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!code) setSubmitted(true);
  }

  return (
    <AuthShell>
      <h1 className="auth-card__title">{t('auth.forgot.title')}</h1>
      <p className="auth-card__subtitle">{t('auth.forgot.text')}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          placeholder={t('auth.emailPlaceholder')}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setSubmitted(false);
          }}
          onBlur={() => setTouched(true)}
          error={touched && code ? t(`validation.${code}`) : null}
        />
        <button type="submit" className="button button--primary button--block">
          {t('auth.forgot.submit')}
        </button>
      </form>
      <div role="status" aria-live="polite">
        {submitted ? (
          <div className="alert alert--info">
            <p>{t('auth.forgot.unavailable')}</p>
            <Link to="/contact" className="link">
              {t('auth.forgot.contact')}
            </Link>
          </div>
        ) : null}
      </div>
      <p className="auth-card__footer">
        <Link to="/login" className="link">
          {t('auth.forgot.backToLogin')}
        </Link>
      </p>
    </AuthShell>
  );
}
