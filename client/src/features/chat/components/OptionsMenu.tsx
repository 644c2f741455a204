import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/ui/Icon.tsx';
import { LanguageToggle } from '../../../components/ui/LanguageToggle.tsx';
import { Popover } from '../../../components/ui/Popover.tsx';
import { chooseTheme } from '../../../lib/settings.ts';
import { resolveTheme, useTheme } from '../../../lib/theme.ts';

export type OptionsAction = 'avatar' | 'voice' | 'clear';

/** The header's options menu (spec §2): change avatar, change voice, clear history, theme, language. */
export function OptionsMenu({ onAction }: { onAction: (action: OptionsAction) => void }) {
  const { t } = useTranslation();
  const theme = useTheme((s) => s.theme);
  const dark = resolveTheme(theme) === 'dark';
  return (
    <Popover label={t('chat.options')} trigger={<Icon name="sliders" />}>
      {(close) => (
        <div className="options-panel">
          <ul className="popover__list">
            {(
              [
                ['avatar', 'user', t('chat.changeAvatar')],
                ['voice', 'wave', t('chat.changeVoice')],
                ['clear', 'trash', t('chat.clearHistory')],
              ] as const
            ).map(([action, icon, label]) => (
              <li key={action}>
                <button
                  type="button"
                  className="popover__item popover__item--row"
                  onClick={() => {
                    close();
                    onAction(action);
                  }}
                >
                  <Icon name={icon} size={18} />
                  {label}
                </button>
              </li>
            ))}
            <li>
              <button
                type="button"
                className="popover__item popover__item--row"
                // Saved to the account when possible; the local switch stays either way.
                onClick={() => void chooseTheme(dark ? 'light' : 'dark').catch(() => undefined)}
              >
                <Icon name={dark ? 'sun' : 'moon'} size={18} />
                {dark ? t('common.themeToggleToLight') : t('common.themeToggleToDark')}
              </button>
            </li>
          </ul>
          <div className="options-panel__language">
            <Icon name="globe" size={18} />
            <span>{t('common.language')}</span>
            <LanguageToggle />
          </div>
        </div>
      )}
    </Popover>
  );
}
