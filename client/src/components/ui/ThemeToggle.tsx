import { useTranslation } from 'react-i18next';
import { chooseTheme } from '../../lib/settings.ts';
import { resolveTheme, useTheme } from '../../lib/theme.ts';
import { IconButton } from './IconButton.tsx';

/** Dark ↔ light switch; auto is offered only in dashboard preferences (spec §1). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useTheme((s) => s.theme);
  const dark = resolveTheme(theme) === 'dark';
  const label = dark ? t('common.themeToggleToLight') : t('common.themeToggleToDark');
  return (
    <IconButton
      icon={dark ? 'sun' : 'moon'}
      label={label}
      // Saved to the account when signed in; a failure leaves the local switch in place.
      onClick={() => void chooseTheme(dark ? 'light' : 'dark').catch(() => undefined)}
    />
  );
}
