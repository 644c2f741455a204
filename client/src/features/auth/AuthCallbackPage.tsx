import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { REDIRECT_DELAY_MS, routes } from '@alma/protocol';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { call } from '../../lib/api.ts';
import { fetchPreferences } from '../../lib/preferences.ts';
import { useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { completeCallback, paramError, readCallbackParams } from './callback.ts';
import { AuthShell } from './components/AuthShell.tsx';

type Phase = { kind: 'working' } | { kind: 'redirecting' } | { kind: 'error'; message: string };

/**
 * Return point of an outside identity provider (spec §2): reads token, refreshToken, provider,
 * error, error_description and isNewUser; stores the tokens, fetches the user, then after about a
 * second replaces history with /onboarding (new user) or /chat. The branches live in callback.ts.
 */
export function AuthCallbackPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('auth.callback.title'));
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const params = useMemo(() => readCallbackParams(search), [search]);
  const [phase, setPhase] = useState<Phase>({ kind: 'working' });
  // Keys come from callback.ts (errors.*); i18next's typed keys cannot follow a computed one.
  const text = t as unknown as (key: string, options?: Record<string, string>) => string;
  const earlyError = paramError(params, text);
  const hasEarlyError = earlyError !== null;

  useEffect(() => {
    const { token } = params;
    if (hasEarlyError || !token) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void completeCallback(
      { ...params, token },
      {
        storeTokens: (access, refresh) =>
          useSession.getState().setSession({ token: access, refreshToken: refresh ?? undefined }),
        fetchUser: async () => (await call(routes.auth.me, {})).user,
        onUser: async (user, isNewUser) => {
          useSession.getState().setUser(user);
          await fetchPreferences(user.id, { withTheme: !isNewUser });
        },
        text,
      },
    ).then((outcome) => {
      if (cancelled) return;
      if (outcome.kind === 'error') {
        setPhase({ kind: 'error', message: outcome.message });
        return;
      }
      const go = () =>
        void navigate(outcome.to, {
          replace: true,
          state: outcome.to === '/onboarding' ? outcome.state : undefined,
        });
      if (!outcome.delay) return go();
      setPhase({ kind: 'redirecting' });
      timer = setTimeout(go, REDIRECT_DELAY_MS);
    });
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [params, hasEarlyError, navigate, text]);

  const shown: Phase = earlyError !== null ? { kind: 'error', message: earlyError } : phase;

  function retry() {
    // Retry starts the provider's sign-in again; without a known provider, the login page.
    if (params.provider) window.location.assign(`/auth/${params.provider}`);
    else void navigate('/login', { replace: true });
  }

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
            <button
              type="button"
              className="button button--ghost"
              onClick={() => void navigate('/login', { replace: true })}
            >
              {t('auth.callback.backToLogin')}
            </button>
            <button type="button" className="button button--primary" onClick={retry}>
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
