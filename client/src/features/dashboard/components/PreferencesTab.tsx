import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routes, THEMES, type Theme } from '@alma/protocol';
import { Checkbox } from '../../../components/ui/Field.tsx';
import { call, errorText } from '../../../lib/api.ts';
import { currentLanguage, isLanguage } from '../../../lib/i18n.ts';
import {
  chooseLanguage,
  chooseTheme,
  isListedLanguage,
  LISTED_LANGUAGES,
  shownLanguage,
  useLanguageChoice,
} from '../../../lib/settings.ts';
import { useSession } from '../../../lib/session.ts';
import { useTheme } from '../../../lib/theme.ts';
import { Card } from './Card.tsx';
import { EngineFacts } from './EngineFacts.tsx';

type Status = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/**
 * Language, theme (dark, light, auto) and notifications. Each change applies at once and is
 * saved to the account: language and notifications through PUT /auth/updatedetails, the theme
 * through PUT /api/users/preferences. Admins also see the server's engines (SPEC.md H-3).
 */
export function PreferencesTab() {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const theme = useTheme((s) => s.theme);
  const stored = useLanguageChoice((s) => s.stored);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  if (!user) return null;
  const language = shownLanguage(stored, currentLanguage(i18n));

  async function save(action: () => Promise<unknown>) {
    setStatus({ kind: 'saving' });
    try {
      await action();
      setStatus({ kind: 'saved' });
    } catch (error) {
      setStatus({ kind: 'error', message: errorText(error, t('errors.preferencesSave')) });
    }
  }

  function setNotifications(patch: { emailNotifications?: boolean; pushNotifications?: boolean }) {
    const before = useSession.getState().user;
    if (!before) return;
    // Shown at once; put back if the server refuses.
    useSession.getState().setUser({ ...before, ...patch });
    void save(async () => {
      try {
        const { user: updated } = await call(routes.account.updateDetails, { body: patch });
        useSession.getState().setUser(updated);
      } catch (error) {
        const now = useSession.getState().user;
        if (now) useSession.getState().setUser({ ...now, ...pick(before, patch) });
        throw error;
      }
    });
  }

  return (
    <Card title={t('dashboard.tabs.preferences')}>
      <form
        className="form"
        onSubmit={(e) => e.preventDefault()}
        aria-label={t('dashboard.tabs.preferences')}
      >
        <div className="field">
          <label className="field__label" htmlFor="pref-language">
            {t('dashboard.preferences.language')}
          </label>
          <select
            id="pref-language"
            name="language"
            className="field__input"
            value={language}
            aria-describedby="pref-language-hint"
            onChange={(e) => {
              const code = e.target.value;
              if (isListedLanguage(code)) void save(() => chooseLanguage(code));
            }}
          >
            {LISTED_LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {code.toUpperCase()} · {t(`common.languages.${code}`)}
              </option>
            ))}
          </select>
          <p className="field__hint" id="pref-language-hint">
            {isLanguage(language)
              ? t('dashboard.preferences.languageHint')
              : t('common.languageFallback', { code: language.toUpperCase() })}
          </p>
        </div>
        <fieldset className="field">
          <legend className="field__label">{t('dashboard.preferences.theme')}</legend>
          <div className="segmented">
            {THEMES.map((option: Theme) => (
              <label key={option} className="segmented__item segmented__item--radio">
                <input
                  type="radio"
                  name="theme"
                  value={option}
                  checked={theme === option}
                  onChange={() => void save(() => chooseTheme(option))}
                />
                {t(`common.themes.${option}`)}
              </label>
            ))}
          </div>
          <p className="field__hint">{t('dashboard.preferences.autoHint')}</p>
        </fieldset>
        <fieldset className="field">
          <legend className="field__label">{t('dashboard.preferences.notifications')}</legend>
          <Checkbox
            name="emailNotifications"
            label={t('dashboard.preferences.emailNotifications')}
            checked={user.emailNotifications}
            onChange={(e) => setNotifications({ emailNotifications: e.target.checked })}
          />
          <Checkbox
            name="pushNotifications"
            label={t('dashboard.preferences.pushNotifications')}
            checked={user.pushNotifications}
            onChange={(e) => setNotifications({ pushNotifications: e.target.checked })}
          />
        </fieldset>
        <div aria-live="polite" className="save-status">
          {status.kind === 'saving' ? <p className="muted">{t('dashboard.saving')}</p> : null}
          {status.kind === 'saved' ? (
            <p className="alert alert--success" role="status">
              {t('dashboard.preferences.saved')}
            </p>
          ) : null}
          {status.kind === 'error' ? (
            <p className="alert alert--error" role="alert">
              {status.message}
            </p>
          ) : null}
        </div>
      </form>
      {user.role === 'admin' ? <EngineFacts /> : null}
    </Card>
  );
}

function pick<T extends object>(source: T, keysOf: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(keysOf) as (keyof T)[]) out[key] = source[key];
  return out;
}
