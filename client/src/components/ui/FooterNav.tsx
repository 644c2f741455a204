import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** The footer's links: the legal pages, preceded by sign-in and sign-up where asked. */
export function FooterNav({ account = false }: { account?: boolean }) {
  const { t } = useTranslation();
  const links = [
    ...(account
      ? [
          { to: '/login', label: t('nav.login') },
          { to: '/register', label: t('nav.register') },
        ]
      : []),
    { to: '/terms', label: t('nav.terms') },
    { to: '/privacy', label: t('nav.privacy') },
    { to: '/contact', label: t('nav.contact') },
  ];
  return (
    <nav aria-label={t('nav.footer')}>
      <ul className="footer__links">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
