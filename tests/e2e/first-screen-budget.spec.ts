import { expect, test } from '@playwright/test';
import {
  BUDGET_3D,
  BUDGET_FIRST,
  filesOf,
  FIRST_SCREENS,
  kb,
  measureBuild,
  readManifest,
  ROUTE_MODULES,
  SHOWS_3D,
} from '../bench/bundle-manifest.ts';

/**
 * Issue 12, "a lean first screen": the build holds its budgets (tests/bench/bundle-manifest.ts),
 * and the figures are honest — each first screen renders, in a real browser, from the files
 * counted for it alone (every other script and stylesheet is refused).
 */
const dist = new URL('../../client/dist', import.meta.url).pathname;
const manifest = readManifest(dist);

/**
 * A path to open for each first screen, its heading once rendered, and an element its own
 * stylesheet lays out (features/<feature>/<feature>.css) with the padding it gets there.
 */
const AUTH_CARD = { styled: '.auth-card', padding: /^(2[2-9]|3[0-6])(\.\d+)?px$/ };
const OPEN: Record<string, { path: string; heading: string; styled: string; padding: RegExp }> = {
  '/': {
    path: '/',
    heading: 'Habla con alguien que te escucha de verdad',
    styled: '.hero',
    padding: /^[1-9]\d*(\.\d+)?px$/,
  },
  '/login': { path: '/login', heading: 'Inicia sesión', ...AUTH_CARD },
  '/register': { path: '/register', heading: 'Crea tu cuenta', ...AUTH_CARD },
  '/forgot-password': { path: '/forgot-password', heading: 'Recuperar contraseña', ...AUTH_CARD },
  '/reset-password/:token': {
    path: '/reset-password/0123456789abcdef',
    heading: 'Nueva contraseña',
    ...AUTH_CARD,
  },
};

// In Spanish, the language the weights count (the default, and the larger of the two).
test.use({ locale: 'es-ES' });

test('the first screens weigh at most 120 KB gzip of JS and CSS; the 3D chunk at most 300 KB, only where a 3D view shows', () => {
  const { screens, three } = measureBuild(dist);
  const first = screens.filter((s) => FIRST_SCREENS.includes(s.route));
  test.info().annotations.push({
    type: 'weights',
    description: first.map((s) => `${s.route} ${kb(s.gzip)}`).join(', '),
  });
  for (const { route, gzip } of first) {
    expect(gzip, `${route}: ${kb(gzip)} gzip`).toBeLessThanOrEqual(BUDGET_FIRST);
  }

  expect(three, 'a chunk named "three" (client/vite.config.ts)').toBeDefined();
  expect(three?.gzip).toBeLessThanOrEqual(BUDGET_3D);
  expect(three?.loadedBy.sort()).toEqual([...SHOWS_3D].sort());
});

for (const route of FIRST_SCREENS) {
  test(`${route} renders from the files its weight counts`, async ({ page }) => {
    const counted = new Set(filesOf(manifest, ROUTE_MODULES[route] ?? []));
    const refused: string[] = [];
    await page.route(/\/assets\/.*\.(js|css)$/, (request) => {
      const file = new URL(request.request().url()).pathname.slice(1);
      if (counted.has(file)) return request.continue();
      refused.push(file);
      return request.abort();
    });
    const screen = OPEN[route];
    if (!screen) throw new Error(`no way to open ${route}: add it to OPEN`);
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.heading);
    // Styled by the shared stylesheet (the theme's background, not the browser's) and its own.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
      'rgba(0, 0, 0, 0)',
    );
    await expect(page.locator(screen.styled)).toHaveCSS('padding-top', screen.padding);
    test.info().annotations.push({ type: 'loaded later', description: refused.join(', ') || 'nothing' });
  });
}
