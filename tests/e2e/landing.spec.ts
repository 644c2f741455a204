import { expect, test, type Page } from '@playwright/test';
import { shot } from './support.ts';

/**
 * The landing page (spec §2 Landing) on a desktop and a 375 px phone, the pricing toggle, and
 * the language and theme switches surviving a reload (spec §1).
 */
test.use({ locale: 'en-US' });

const isPhone = () => test.info().project.name === 'phone';

/** On a phone the header's links and switches sit behind the menu button. */
async function openMenu(page: Page) {
  if (!isPhone()) return;
  const button = page.getByRole('button', { name: /Open menu|Abrir menú/ });
  await button.click();
  await expect(page.getByRole('button', { name: /Close menu|Cerrar menú/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
}

test('landing: header, hero, six features, pricing with the yearly -17% badge, testimonials, footer', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Talk to someone who really listens');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await shot(page, 'landing-top');

  await openMenu(page);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const name of ['Features', 'Pricing', 'Testimonials']) {
    await expect(nav.getByRole('link', { name })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
  if (isPhone()) await shot(page, 'landing-menu');
  await nav.getByRole('link', { name: 'Pricing' }).click();

  await expect(page.locator('#features .feature')).toHaveCount(6);
  const pricing = page.locator('#pricing');
  await pricing.scrollIntoViewIfNeeded();
  const monthly = pricing.getByRole('button', { name: 'Monthly' });
  const yearly = pricing.getByRole('button', { name: /Yearly/ });
  await expect(monthly).toHaveAttribute('aria-pressed', 'true');
  await expect(yearly).toContainText('-17%');
  await expect(pricing.getByText('7-day free trial')).toBeVisible();
  const cards = pricing.locator('.price-card');
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toContainText('Free');
  await expect(cards.nth(1)).toContainText('Pro');
  await expect(cards.nth(1)).toContainText('9.99');
  await expect(cards.nth(2)).toContainText('Enterprise');
  await expect(cards.nth(2)).toContainText('29.99');
  await shot(page, 'landing-pricing-monthly');

  await yearly.click();
  await expect(yearly).toHaveAttribute('aria-pressed', 'true');
  await expect(cards.nth(1)).toContainText('99.99');
  await expect(cards.nth(1)).toContainText('/year');
  await expect(cards.nth(2)).toContainText('299.99');
  await shot(page, 'landing-pricing-yearly');

  await expect(cards.nth(2).getByRole('link')).toHaveAttribute('href', '/contact');
  await expect(cards.nth(0).getByRole('link')).toHaveAttribute('href', '/register');
  await expect(cards.nth(1).getByRole('link')).toHaveAttribute('href', '/register');
  await expect(page.locator('#testimonials figure')).toHaveCount(2);
  const footer = page.getByRole('contentinfo');
  for (const href of ['/login', '/register', '/terms', '/privacy']) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
});

test('language and theme switches persist across reloads; FR, DE, IT, PT fall back to English', async ({
  page,
}) => {
  await page.goto('/');
  await openMenu(page);
  const picker = page.getByLabel('Interface language');
  await expect(picker.locator('option')).toHaveText(['ES', 'EN', 'FR', 'DE', 'IT', 'PT']);

  await picker.selectOption('fr');
  await expect(page.getByText('FR: interface in English')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await shot(page, 'landing-language-fr');
  await page.reload();
  await openMenu(page);
  await expect(page.getByLabel('Interface language')).toHaveValue('fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Talk to someone who really listens');

  await page.getByLabel('Interface language').selectOption('es');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByText('FR: interface in English')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Cambiar a tema claro' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await openMenu(page);
  await expect(page.getByLabel('Idioma de la interfaz')).toHaveValue('es');
  await shot(page, 'landing-es-light');
});
