import { useTranslation } from 'react-i18next';
import { resolveTheme, useTheme } from '../../lib/theme.ts';
import { Icon } from './Icon.tsx';

/** Dark ↔ light switch; auto is offered only in dashboard preferences (spec §1). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const theme = useTheme((s) => s.theme);
  const toggle = useTheme((s) => s.toggle);
  const dark = resolveTheme(theme) === 'dark';
  const label = dark ? t('common.themeToggleToLight') : t('common.themeToggleToDark');
  return (
    <button type="button" className="icon-button" onClick={toggle} aria-label={label} title={label}>
      <Icon name={dark ? 'sun' : 'moon'} />
    </button>
  );
}
