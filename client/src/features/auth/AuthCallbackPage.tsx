import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { REDIRECT_DELAY_MS, routes } from '@alma/protocol';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { AuthShell } from './components/AuthShell.tsx';

type Phase = { kind: 'working' } | { kind: 'redirecting' } | { kind: 'error'; message: string };

/**
 * Return point of an outside identity provider (spec §2): reads token, provider, error,
 * error_description and isNewUser; stores the token, fetches the user, then after about a second
 * replaces history with /onboarding (new user) or /chat.
 */
export function AuthCallbackPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.callback.title'));
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ kind: 'working' });
  const [attempt, setAttempt] = useState(0);

  const token = params.get('token');
  const providerError = params.get('error');
  const detail = params.get('error_description') ?? providerError;
  // On error or missing token there is nothing to exchange: the error shows straight away.
  const paramError =
    providerError || !token
      ? detail
        ? t('errors.oauthFailed', { detail })
        : t('errors.oauthNoToken')
      : null;

  useEffect(() => {
    if (paramError || !token) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const isNewUser = params.get('isNewUser') === 'true';
    useSession.getState().setSession({ token });
    call(routes.auth.me, {})
      .then(({ user }) => {
        if (cancelled) return;
        useSession.getState().setUser(user);
        setPhase({ kind: 'redirecting' });
        timer = setTimeout(() => {
          if (isNewUser)
            void navigate('/onboarding', { replace: true, state: { userId: user.id, fromOAuth: true } });
          else void navigate('/chat', { replace: true });
        }, REDIRECT_DELAY_MS);
      })
      .catch((caught: unknown) => {
        if (cancelled) return;
        // An answer that says no: show it. A throw without an answer: go on to /chat (spec §2).
        if (caught instanceof ApiError && !caught.isNetworkError) {
          setPhase({ kind: 'error', message: caught.displayMessage || t('errors.oauthUserFailed') });
        } else {
          void navigate('/chat', { replace: true });
        }
      });
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
    // `attempt` re-runs the whole exchange on retry.
  }, [params, token, paramError, attempt, navigate, t]);

  const shown: Phase = paramError ? { kind: 'error', message: paramError } : phase;

  return (
    <AuthShell>
      <h1 className="auth-card__title">
        {shown.kind === 'error' ? t('auth.callback.errorTitle') : t('auth.callback.title')}
      </h1>
      {shown.kind === 'error' ? (
        <>
          <div className="alert alert--error" role="alert">
            {shown.message}
          </div>
          <div className="button-row">
            <button type="button" className="button button--ghost" onClick={() => void navigate('/login')}>
              {t('auth.callback.backToLogin')}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setPhase({ kind: 'working' });
                setAttempt((n) => n + 1);
              }}
            >
              {t('auth.callback.retry')}
            </button>
          </div>
        </>
      ) : (
        <div className="callback-status" role="status" aria-live="polite">
          <Spinner />
          <p>{shown.kind === 'working' ? t('auth.callback.working') : t('auth.callback.redirecting')}</p>
        </div>
      )}
    </AuthShell>
  );
}
