import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FooterNav } from '../../components/ui/FooterNav.tsx';
import { Icon, type IconName } from '../../components/ui/Icon.tsx';
import { LanguageToggle } from '../../components/ui/LanguageToggle.tsx';
import { Logo } from '../../components/ui/Logo.tsx';
import { SkipLink } from '../../components/ui/SkipLink.tsx';
import { ThemeToggle } from '../../components/ui/ThemeToggle.tsx';
import { selectIsSignedIn, useSession } from '../../lib/session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { PRICES, type Billing } from './pricing.ts';
import './landing.css';

const FEATURES: {
  key: 'conversations' | 'avatar' | 'voice' | 'adaptive' | 'privacy' | 'browser';
  icon: IconName;
}[] = [
  { key: 'conversations', icon: 'chat' },
  { key: 'avatar', icon: 'smile' },
  { key: 'voice', icon: 'wave' },
  { key: 'adaptive', icon: 'heart' },
  { key: 'privacy', icon: 'shield' },
  { key: 'browser', icon: 'globe' },
];

const PLAN_KEYS = ['free', 'pro', 'enterprise'] as const;

export function LandingPage() {
  const { t } = useTranslation();
  useDocumentTitle(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const signedIn = useSession(selectIsSignedIn);

  const anchors = [
    { href: '#features', label: t('nav.features') },
    { href: '#pricing', label: t('nav.pricing') },
    { href: '#testimonials', label: t('nav.testimonials') },
  ];

  return (
    <div className="landing">
      <SkipLink />
      <header className="landing-header">
        <Logo />
        <nav
          className={`landing-nav ${menuOpen ? 'landing-nav--open' : ''}`}
          id="landing-menu"
          aria-label={t('nav.main')}
        >
          <ul className="landing-nav__links">
            {anchors.map((a) => (
              <li key={a.href}>
                <a href={a.href} onClick={() => setMenuOpen(false)}>
                  {a.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="landing-nav__actions">
            <LanguageToggle />
            <ThemeToggle />
            {signedIn ? (
              <Link to="/chat" className="button button--primary button--small">
                {t('nav.chat')}
              </Link>
            ) : (
              <>
                <Link to="/login" className="button button--ghost button--small">
                  {t('nav.login')}
                </Link>
                <Link to="/register" className="button button--primary button--small">
                  {t('nav.register')}
                </Link>
              </>
            )}
          </div>
        </nav>
        <button
          type="button"
          className="icon-button landing-header__menu"
          aria-expanded={menuOpen}
          aria-controls="landing-menu"
          aria-label={menuOpen ? t('common.closeMenu') : t('common.openMenu')}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
        </button>
      </header>

      <main id="main">
        <section className="hero">
          <div className="hero__copy">
            <p className="eyebrow">{t('landing.hero.eyebrow')}</p>
            <h1 className="hero__title">{t('landing.hero.title')}</h1>
            <p className="hero__subtitle">{t('landing.hero.subtitle')}</p>
            <div className="button-row">
              <Link to="/register" className="button button--primary button--large">
                {t('landing.hero.ctaPrimary')}
              </Link>
              <a href="#features" className="button button--ghost button--large">
                {t('landing.hero.ctaSecondary')}
              </a>
            </div>
            <p className="trial-label">
              <Icon name="sparkle" size={16} />
              {t('landing.hero.trial')}
            </p>
          </div>
          <div className="hero__visual" aria-hidden="true">
            <div className="hero__orb">
              <span className="hero__face" />
            </div>
            <div className="hero__bubble hero__bubble--user">{t('landing.hero.bubbleUser')}</div>
            <div className="hero__bubble hero__bubble--bot">{t('landing.hero.bubbleBot')}</div>
          </div>
        </section>

        <section id="features" className="section" aria-labelledby="features-title">
          <h2 id="features-title" className="section__title">
            {t('landing.features.title')}
          </h2>
          <p className="section__subtitle">{t('landing.features.subtitle')}</p>
          <ul className="feature-grid">
            {FEATURES.map((f) => (
              <li key={f.key} className="feature">
                <span className="feature__icon" aria-hidden="true">
                  <Icon name={f.icon} size={22} />
                </span>
                <h3 className="feature__title">{t(`landing.features.${f.key}.title`)}</h3>
                <p className="feature__text">{t(`landing.features.${f.key}.text`)}</p>
              </li>
            ))}
          </ul>
        </section>

        <Pricing />

        <section id="testimonials" className="section" aria-labelledby="testimonials-title">
          <h2 id="testimonials-title" className="section__title">
            {t('landing.testimonials.title')}
          </h2>
          <div className="testimonials">
            {(['t1', 't2'] as const).map((k) => (
              <figure key={k} className="testimonial">
                <blockquote>
                  <p>“{t(`landing.testimonials.${k}.quote`)}”</p>
                </blockquote>
                <figcaption>
                  <strong>{t(`landing.testimonials.${k}.name`)}</strong>
                  <span className="muted"> · {t(`landing.testimonials.${k}.role`)}</span>
                </figcaption>
              </figure>
            ))}
          </div>
        </section>

        <section className="cta" aria-labelledby="cta-title">
          <h2 id="cta-title">{t('landing.cta.title')}</h2>
          <p>{t('landing.cta.text')}</p>
          <Link to="/register" className="button button--primary button--large">
            {t('landing.cta.button')}
          </Link>
        </section>
      </main>

      <footer className="footer">
        <div className="footer__brand">
          <Logo />
          <p className="muted">{t('landing.footer.made')}</p>
        </div>
        <FooterNav account />
        <p className="footer__rights muted">
          {t('landing.footer.rights', { year: new Date().getFullYear() })}
        </p>
      </footer>
    </div>
  );
}

function Pricing() {
  const { t, i18n } = useTranslation();
  const [billing, setBilling] = useState<Billing>('monthly');
  const format = new Intl.NumberFormat(i18n.language, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 0,
    maximumFractionDigits: 2,
  });
  return (
    <section id="pricing" className="section" aria-labelledby="pricing-title">
      <h2 id="pricing-title" className="section__title">
        {t('landing.pricing.title')}
      </h2>
      <p className="section__subtitle">{t('landing.pricing.subtitle')}</p>
      <div className="billing-toggle" role="group" aria-label={t('landing.pricing.billing')}>
        <button
          type="button"
          className="segmented__item"
          aria-pressed={billing === 'monthly'}
          onClick={() => setBilling('monthly')}
        >
          {t('landing.pricing.monthly')}
        </button>
        <button
          type="button"
          className="segmented__item"
          aria-pressed={billing === 'yearly'}
          onClick={() => setBilling('yearly')}
        >
          {t('landing.pricing.yearly')} <span className="badge">{t('landing.pricing.yearlyBadge')}</span>
        </button>
      </div>
      <p className="trial-label trial-label--center">
        <Icon name="sparkle" size={16} />
        {t('landing.pricing.trial')}
      </p>
      <ul className="pricing-grid">
        {PLAN_KEYS.map((plan) => (
          <li key={plan} className={`price-card ${plan === 'pro' ? 'price-card--featured' : ''}`}>
            {plan === 'pro' ? (
              <span className="price-card__ribbon">{t('landing.pricing.popular')}</span>
            ) : null}
            <h3 className="price-card__name">{t(`landing.pricing.${plan}.name`)}</h3>
            <p className="muted">{t(`landing.pricing.${plan}.description`)}</p>
            <p className="price-card__price">
              <span className="price-card__amount">{format.format(PRICES[plan][billing])}</span>
              <span className="muted">
                {billing === 'monthly' ? t('landing.pricing.perMonth') : t('landing.pricing.perYear')}
              </span>
            </p>
            <ul className="price-card__features">
              {(['f1', 'f2', 'f3', 'f4'] as const).map((f) => (
                <li key={f}>
                  <Icon name="check" size={16} />
                  {t(`landing.pricing.${plan}.${f}`)}
                </li>
              ))}
            </ul>
            <Link
              to={plan === 'enterprise' ? '/contact' : '/register'}
              className={`button button--block ${plan === 'pro' ? 'button--primary' : 'button--ghost'}`}
            >
              {t(`landing.pricing.${plan}.cta`)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
