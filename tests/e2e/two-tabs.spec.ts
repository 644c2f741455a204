import { expect, test, type Page } from '@playwright/test';
import { startOwnServer, type OwnServer } from './own-server.ts';
import { registerViaApi, shot, signInBrowser } from './support.ts';

/**
 * SPEC.md A-3 in a real browser: two tabs of one signed-in browser, an access token that lives
 * 30 s. After each expiry both tabs call the API at the same moment; they must take turns on
 * one refresh (Web Locks) and stay signed in — not present the token the other tab has just
 * rotated and lose the whole sign-in.
 */
test.use({ locale: 'en-US' });
const TTL_S = 30;
const EXPIRIES = 3;

let server: OwnServer | undefined;
test.beforeAll(async () => {
  server = await startOwnServer({ ACCESS_TOKEN_TTL_S: String(TTL_S) });
});
test.afterAll(async () => server?.stop());

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test('A-3 two tabs stay signed in across several access-token expiries, taking turns on the refresh @any-width', async ({
  browser,
  playwright,
}) => {
  // Mostly waiting for expiries; generous for a loaded machine.
  test.setTimeout((EXPIRIES * (TTL_S + 60) + 120) * 1000);
  if (!server) throw new Error('the beforeAll hook starts the server');
  const request = await playwright.request.newContext({ baseURL: server.url });
  const session = await registerViaApi(request, { name: 'Tabitha' });
  const context = await browser.newContext({ baseURL: server.url });
  const refreshes: string[] = [];
  context.on('request', (r) => {
    if (new URL(r.url()).pathname === '/auth/refresh') refreshes.push(r.postData() ?? '');
  });
  const first = await context.newPage();
  await signInBrowser(first, session);
  const second = await context.newPage();
  for (const page of [first, second]) {
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Hi, Tabitha' })).toBeVisible({ timeout: 30_000 });
  }

  for (let expiry = 1; expiry <= EXPIRIES; expiry++) {
    const before = refreshes.length;
    // Past the access token's lifetime (with a margin for the clocks).
    await first.waitForTimeout((TTL_S + 2) * 1000);
    // Both tabs ask for the usage at once: each gets a 401 with its expired token.
    await Promise.all([openTab(first, 'Usage'), openTab(second, 'Usage')]);
    for (const page of [first, second]) {
      await expect(page.getByRole('progressbar', { name: 'Messages', exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard/);
    }
    // The tabs took turns on the refresh instead of each presenting its own copy: one refresh,
    // or two when the second tab's 401 came back before the first tab's pair reached it (the
    // server answers a just-rotated token with the same successor). Seen once at 2 on a quiet
    // machine; the count is recorded, and what the user sees (signed in) and what the server
    // keeps (the sign-in, checked below) are asserted.
    const made = refreshes.length - before;
    test.info().annotations.push({ type: 'refreshes', description: `expiry ${expiry}: ${made}` });
    expect(made).toBeGreaterThanOrEqual(1);
    expect(made).toBeLessThanOrEqual(2);
    await Promise.all([openTab(first, 'Overview'), openTab(second, 'Overview')]);
  }
  await shot(second, 'two-tabs-still-signed-in');

  // The sign-in is intact on the server too: the tabs' shared refresh token still works.
  const stored = await first.evaluate(() => localStorage.getItem('refreshToken'));
  const refreshed = await request.post('/auth/refresh', { data: { refreshToken: stored } });
  expect(refreshed.status()).toBe(200);
  await context.close();
  await request.dispose();
});
