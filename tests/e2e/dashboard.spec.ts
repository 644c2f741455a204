import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, shot, signInBrowser } from './support.ts';

/**
 * The dashboard (spec §2 Dashboard): tabs, profile saved to the server, subscription in
 * maintenance, usage bars, preferences that survive a reload.
 */
test.use({ locale: 'en-US' });

const isPhone = () => test.info().project.name === 'phone';

/** Runs an action and waits for the PUT it makes to be answered. */
async function andSaved(page: Page, path: string, action: () => Promise<void>) {
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === path),
    action(),
  ]);
}

/** The theme choices are radios styled as a segmented control: the label is what one clicks. */
const themeOption = (page: Page, name: string) => page.locator('label.segmented__item', { hasText: name });

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test('overview, subscription and usage tabs; the sidebar collapses', async ({ page, request }) => {
  const session = await registerViaApi(request, { name: 'Quinn' });
  await signInBrowser(page, session);
  await page.goto('/dashboard');

  await expect(page.getByRole('heading', { name: 'Hi, Quinn' })).toBeVisible();
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await expect(page.getByRole('progressbar', { name: 'Messages this month' })).toHaveAttribute(
    'aria-valuemax',
    '500',
  );
  await expect(page.getByText('0 B / 100 MB')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to chat' }).first()).toHaveAttribute('href', '/chat');
  await shot(page, 'dashboard-overview');

  if (!isPhone()) {
    const toggle = page.getByRole('button', { name: 'Sidebar' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('tab', { name: 'Profile' })).toBeVisible();
    await shot(page, 'dashboard-collapsed');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }

  // Arrow keys move between tabs.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('tab', { name: 'Profile' })).toBeFocused();

  await openTab(page, 'Subscription');
  await expect(page.getByRole('note')).toContainText('Paid plans are in maintenance');
  await expect(page.getByTestId('subscription-plan')).toHaveText('Free');
  for (const name of ['Upgrade plan', 'Manage billing', 'Cancel subscription', 'Reactivate subscription']) {
    await expect(page.getByRole('button', { name })).toBeDisabled();
  }
  await shot(page, 'dashboard-subscription');

  await openTab(page, 'Usage');
  await expect(page.getByRole('progressbar', { name: 'Messages' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Voice minutes' })).toHaveAttribute(
    'aria-valuemax',
    '30',
  );
  await expect(page.getByText('0 of 500')).toBeVisible();
  // Only admins see the reset.
  await expect(page.getByRole('button', { name: 'Reset usage' })).toHaveCount(0);
  await shot(page, 'dashboard-usage');
});

test('an admin sees and uses the usage reset @any-width', async ({ page, request }) => {
  const session = await registerViaApi(request, { email: `admin-e2e@example.com`, name: 'Ada' });
  await signInBrowser(page, session);
  await page.goto('/dashboard?tab=usage');
  await page.getByRole('button', { name: 'Reset usage' }).click();
  await expect(page.getByText('Usage reset', { exact: true })).toBeVisible();
  await expect(page.getByText('0 of 500')).toBeVisible();
});

test('an admin sees the engines and how to enable what is missing (SPEC.md H-3); others do not @any-width', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { email: `admin-e2e@example.com`, name: 'Ada' });
  const health = (await (await request.get('/health')).json()) as {
    capabilities: { id: string; engine: string; ok: boolean; enable?: string }[];
  };
  await signInBrowser(page, session);
  await page.goto('/dashboard?tab=preferences');
  const facts = page.getByRole('region', { name: 'Engines on this server' });
  await expect(facts.getByRole('listitem')).toHaveCount(health.capabilities.length);
  await expect(facts.getByRole('listitem').filter({ hasText: 'Replies' })).toContainText('On');
  await expect(facts.getByRole('listitem').filter({ hasText: 'Replies' })).toContainText('builtin');
  for (const row of health.capabilities.filter((c) => !c.ok)) {
    await expect(facts.getByText(row.enable ?? '', { exact: true })).toBeVisible();
  }
  await facts.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-engines');
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('es');
  await expect(page.getByRole('region', { name: 'Motores de este servidor' })).toBeVisible();
  await expect(page.getByText('Respuestas', { exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Idioma', exact: true }).selectOption('en');

  const other = await registerViaApi(request, { name: 'Noor' });
  await signInBrowser(page, other);
  await page.goto('/dashboard?tab=preferences');
  await expect(page.getByRole('heading', { name: 'Preferences' }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Engines on this server' })).toHaveCount(0);
});

test('profile: name and bio saved to the server and shown after a reload; email read only', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { name: 'Robin' });
  await signInBrowser(page, session);
  await page.goto('/dashboard');
  await openTab(page, 'Profile');
  await expect(page).toHaveURL(/tab=profile/);

  const name = page.getByLabel('Name', { exact: true });
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
  await name.fill('R');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Name is required (at least 2 characters)')).toBeVisible();

  await name.fill('Robin Hood');
  await page.getByLabel('Bio').fill('Archer. Likes long walks in the forest.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Hi, Robin Hood' })).toBeVisible();
  await shot(page, 'dashboard-profile');

  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Robin Hood');
  await expect(page.getByLabel('Bio')).toHaveValue('Archer. Likes long walks in the forest.');
  const me = await request.get('/auth/me', { headers: { authorization: `Bearer ${session.token}` } });
  expect(((await me.json()) as { user: { name: string } }).user.name).toBe('Robin Hood');
});

test('preferences: theme and language saved, surviving reloads; notifications off', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  await page.goto('/dashboard?tab=preferences');

  await andSaved(page, '/api/users/preferences', () => themeOption(page, 'Light').click());
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.getByText('Preferences saved')).toBeVisible();
  await andSaved(page, '/auth/updatedetails', () => page.getByLabel('Email notifications').uncheck());
  await andSaved(page, '/auth/updatedetails', async () => {
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('es');
  });
  await expect(page.getByRole('tab', { name: 'Preferencias' })).toBeVisible();
  await shot(page, 'dashboard-preferences');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('radio', { name: 'Claro' })).toBeChecked();
  await expect(page.getByLabel('Notificaciones por email')).not.toBeChecked();

  const auth = { authorization: `Bearer ${session.token}` };
  const me = (await (await request.get('/auth/me', { headers: auth })).json()) as {
    user: { language: string; theme: string; emailNotifications: boolean };
  };
  expect(me.user).toMatchObject({ language: 'es', theme: 'light', emailNotifications: false });

  // Auto follows the system's colour scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await andSaved(page, '/api/users/preferences', () => themeOption(page, 'Automático').click());
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Automático' })).toBeChecked();

  // A language without an interface falls back to English and says so.
  await page.getByRole('combobox', { name: 'Idioma', exact: true }).selectOption('de');
  await expect(page.getByText('DE: interface in English').first()).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Preferences' })).toBeVisible();
  await shot(page, 'dashboard-language-de');
});
