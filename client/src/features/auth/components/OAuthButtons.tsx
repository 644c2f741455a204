import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';

const PROVIDERS = [
  { id: 'google', name: 'Google', icon: 'google' },
  { id: 'github', name: 'GitHub', icon: 'github' },
] as const;

/**
 * Google and GitHub buttons (spec §2). The providers are not configured on the server yet, so a
 * click explains that instead of leaving to a dead page; real OAuth replaces the handler.
 */
export function OAuthButtons({ mode }: { mode: 'login' | 'register' }) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div className="oauth">
      <div className="divider" role="separator">
        <span>{t('auth.orContinueWith')}</span>
      </div>
      <div className="oauth__buttons">
        {PROVIDERS.map((p) => (
          <button
            key={p.id}
            type="button"
            className="button button--ghost button--block"
            onClick={() => setNotice(t('auth.oauthNotConfigured', { provider: p.name }))}
          >
            <Icon name={p.icon} size={18} />
            {mode === 'login'
              ? t(p.id === 'google' ? 'auth.google' : 'auth.github')
              : t(p.id === 'google' ? 'auth.register.googleSignup' : 'auth.register.githubSignup')}
          </button>
        ))}
      </div>
      <p className="notice" role="status" aria-live="polite" hidden={!notice}>
        {notice}
      </p>
    </div>
  );
}
