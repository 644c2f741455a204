import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

export function Logo({ to = '/' }: { to?: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="logo" aria-label={`${t('app.name')} — ${t('common.goHome')}`}>
      <span className="logo__mark" aria-hidden="true" />
      <span className="logo__text">{t('app.name')}</span>
    </Link>
  );
}
