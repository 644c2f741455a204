import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Checkbox, PasswordField } from '../../components/ui/Field.tsx';
import { redirectTarget } from '../../lib/redirect.ts';
import { selectIsSignedIn, useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthShell } from './components/AuthShell.tsx';
import { EmailField } from './components/EmailField.tsx';
import { OAuthButtons } from './components/OAuthButtons.tsx';
import { authClient } from './server.ts';
import { rememberedEmail, useAuthFlow } from './store.ts';

export function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.login.title'));
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  // The emailed verification link lands here with ?verified=1 (or 0 for a bad or used link).
  const verified = search.get('verified');
  const [signedInOnArrival] = useState(() => selectIsSignedIn(useSession.getState()));
  // The server ended the last session (signed out elsewhere, password changed): say why.
  const ended = useSession((s) => s.ended);
  const submitting = useAuthFlow((s) => s.submitting);
  const failure = useAuthFlow((s) => s.error);
  const login = useAuthFlow((s) => s.login);
  const clearError = useAuthFlow((s) => s.clearError);

  const [email, setEmail] = useState(rememberedEmail);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => rememberedEmail() !== '');
  const [touched, setTouched] = useState({ email: false, password: false });
  const passwordRef = useRef<HTMLInputElement>(null);

  // The rules arrive just after the page (./client.ts); until then nothing is sent or flagged.
  const rules = authClient.use()?.rules;
  const emailCode = rules ? rules.loginEmail(email) : null;
  const passwordCode = rules ? rules.loginPassword(password) : null;
  const valid = !!rules && emailCode === null && passwordCode === null;

  if (signedInOnArrival) return <Navigate to={redirectTarget(location.state)} replace />;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (!valid || submitting) return;
    const ok = await login({ email, password, remember });
    if (ok) {
      void navigate(redirectTarget(location.state), { replace: true });
    } else {
      passwordRef.current?.focus();
    }
  }

  return (
    <AuthShell>
      <h1 className="auth-card__title">{t('auth.login.title')}</h1>
      <p className="auth-card__subtitle">{t('auth.login.subtitle')}</p>
      {verified === '1' || verified === '0' ? (
        <div className={`alert ${verified === '1' ? 'alert--success' : 'alert--error'}`} role="status">
          {verified === '1' ? t('auth.login.verified') : t('auth.login.notVerified')}
        </div>
      ) : null}
      {ended && !failure ? (
        <div className="alert alert--info" role="status">
          {t(`errors.${ended}`)}
        </div>
      ) : null}
      {failure ? (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      ) : null}
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <EmailField
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (failure) clearError();
          }}
          onBlur={() => setTouched((s) => ({ ...s, email: true }))}
          error={touched.email && emailCode ? t(`validation.${emailCode}`) : null}
          required
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          inputRef={passwordRef}
          onChange={(e) => {
            setPassword(e.target.value);
            if (failure) clearError();
          }}
          onBlur={() => setTouched((s) => ({ ...s, password: true }))}
          error={touched.password && passwordCode ? t(`validation.${passwordCode}`) : null}
          required
        />
        <div className="form__row">
          <Checkbox
            label={t('auth.login.rememberMe')}
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
          />
          <Link to="/forgot-password" className="link">
            {t('auth.login.forgot')}
          </Link>
        </div>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={!valid || submitting}
          aria-busy={submitting}
        >
          {submitting ? t('auth.login.submitting') : t('auth.login.submit')}
        </button>
      </form>
      <OAuthButtons mode="login" />
      <p className="auth-card__footer">
        {t('auth.login.noAccount')}{' '}
        <Link to="/register" state={location.state as unknown} className="link">
          {t('auth.login.register')}
        </Link>
      </p>
      <p className="auth-card__footer">
        <Link to="/" className="link link--muted">
          {t('auth.login.backHome')}
        </Link>
      </p>
    </AuthShell>
  );
}
