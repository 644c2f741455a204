import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OAuthProvider } from '@alma/protocol';
import { Icon } from '../../../components/ui/Icon.tsx';
import { authClient } from '../server.ts';

const PROVIDERS = [
  { id: 'google', name: 'Google', icon: 'google' },
  { id: 'github', name: 'GitHub', icon: 'github' },
] as const;

type Configured = Record<OAuthProvider, boolean>;

/** GET /auth/providers once per page load: which providers this server can sign in with. */
let providersRequest: Promise<Configured | null> | null = null;
function loadProviders(): Promise<Configured | null> {
  providersRequest ??= authClient
    .get()
    .then(({ call, routes }) => call(routes.account.providers, {}))
    .catch(() => {
      providersRequest = null;
      return null;
    });
  return providersRequest;
}

/**
 * Google and GitHub buttons (spec §2). A configured provider starts the server's OAuth flow
 * (a full page navigation to /auth/<provider>); one that is not configured looks unavailable and
 * says so up front instead of leading to a dead end.
 */
export function OAuthButtons({ mode }: { mode: 'login' | 'register' }) {
  const { t } = useTranslation();
  const [configured, setConfigured] = useState<Configured | null>(null);

  useEffect(() => {
    let live = true;
    void loadProviders().then((result) => {
      if (live) setConfigured(result);
    });
    return () => {
      live = false;
    };
  }, []);

  const unavailable = PROVIDERS.filter((p) => configured && !configured[p.id]);
  const noticeId = `oauth-notice-${mode}`;

  return (
    <div className="oauth">
      <div className="divider" role="separator">
        <span>{t('auth.orContinueWith')}</span>
      </div>
      <div className="oauth__buttons">
        {PROVIDERS.map((p) => {
          const off = configured !== null && !configured[p.id];
          return (
            <button
              key={p.id}
              type="button"
              className={`button button--ghost button--block ${off ? 'button--unavailable' : ''}`}
              aria-disabled={off || undefined}
              aria-describedby={off ? noticeId : undefined}
              onClick={() => {
                if (!off) window.location.assign(`/auth/${p.id}`);
              }}
            >
              <Icon name={p.icon} size={18} />
              {mode === 'login'
                ? t(p.id === 'google' ? 'auth.google' : 'auth.github')
                : t(p.id === 'google' ? 'auth.register.googleSignup' : 'auth.register.githubSignup')}
            </button>
          );
        })}
      </div>
      {unavailable.length > 0 ? (
        <p className="notice" id={noticeId}>
          {t('auth.oauthNotConfigured', { provider: unavailable.map((p) => p.name).join(' / ') })}
        </p>
      ) : null}
    </div>
  );
}
