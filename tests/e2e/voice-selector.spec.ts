import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, shot, signInBrowser, type ApiSession } from './support.ts';

/**
 * The voice selector modal (spec §2, §4, §5) opened from the chat's options menu: category and
 * language filters, search, paging, preview, favourites, confirm — and the choice survives a
 * reload. Runs at 1280 px (desktop) and 375 px (phone).
 */
async function openChat(page: Page, session: ApiSession): Promise<void> {
  await signInBrowser(page, session);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine
}

async function openSelector(page: Page) {
  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('dialog', { name: 'Options' }).getByRole('button', { name: 'Change voice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a voice' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('.voice-card').first()).toBeVisible();
  return dialog;
}

test('voice selector: filter, search, page, preview, favourite, confirm; the choice persists', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000); // the chat screen loads the 3D stage twice (before and after the reload)
  const session = await registerViaApi(request);
  const preview = await request.get('/system-voices/en-emma.mp3');
  expect(preview.ok()).toBe(true);
  await openChat(page, session);

  const dialog = await openSelector(page);
  const cards = dialog.locator('.voice-card');
  const pager = dialog.getByRole('navigation', { name: 'Pages' });
  // Page scroll is locked while the modal is open.
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('hidden');
  // 25 voices: eight a page, four page buttons.
  await expect(cards).toHaveCount(8);
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(4);
  await shot(page, 'voice-selector-open');

  await pager.getByRole('button', { name: 'Page 4' }).click();
  await expect(pager.getByRole('button', { name: 'Page 4' })).toHaveAttribute('aria-current', 'page');
  await expect(cards).toHaveCount(1);
  await pager.getByRole('button', { name: 'Previous page' }).click();
  await expect(cards).toHaveCount(8);

  // Category, then language.
  const chips = dialog.getByRole('group', { name: 'Category' });
  await expect(chips.getByRole('button')).toHaveText([
    'All',
    'Favourites',
    'Recent',
    'Recommended',
    'Custom',
    'Female',
    'Male',
    'Neutral',
  ]);
  await chips.getByRole('button', { name: 'Female' }).click();
  await expect(chips.getByRole('button', { name: 'Female' })).toHaveAttribute('aria-pressed', 'true');
  await expect(cards).toHaveCount(8);
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(2);
  await dialog.getByLabel('Language').selectOption('inglés');
  await expect(cards).toHaveCount(5);
  await expect(pager).toBeHidden();
  await expect(dialog.locator('.voice-card__name')).toHaveText(['Emma', 'Olivia', 'Ava', 'Isla', 'Grace']);

  // The custom voices: an honest empty state.
  await chips.getByRole('button', { name: 'Custom' }).click();
  await expect(dialog).toContainText('No custom voices yet');
  await shot(page, 'voice-selector-custom');

  // Search is case-insensitive over the description too (the Scottish accent: "escocés").
  await chips.getByRole('button', { name: 'All' }).click();
  await dialog.getByLabel('Language').selectOption('todos');
  await dialog.getByRole('searchbox', { name: 'Search voices' }).fill('ESCOCÉS');
  await expect(dialog.locator('.voice-card__name')).toHaveText(['Isla', 'Callum']);
  await dialog.getByRole('searchbox', { name: 'Search voices' }).fill('');
  await expect(cards).toHaveCount(8);
  await dialog.getByRole('searchbox', { name: 'Search voices' }).fill('emma');
  await expect(dialog.locator('.voice-card__name')).toHaveText(['Emma']);

  // Preview: play, then stop; the volume starts at 0.5.
  const volume = dialog.getByRole('slider', { name: 'Volume' });
  await expect(volume).toHaveValue('0.5');
  await volume.fill('0.3');
  const audio = dialog.getByTestId('voice-preview-audio');
  // The clip lasts a few seconds and, when it ends, the button turns back to Play by itself: on a
  // busy machine it ended before Stop was pressed. Slowed down (a loaded file starts at the default
  // rate), it still plays when the test presses Stop.
  await audio.evaluate((el: HTMLAudioElement) => {
    el.defaultPlaybackRate = 0.0625;
  });
  await dialog.getByRole('button', { name: 'Play Emma' }).click();
  const stop = dialog.getByRole('button', { name: 'Stop Emma' });
  await expect(stop).toHaveAttribute('aria-pressed', 'true');
  await expect(audio).toHaveAttribute('data-playing', 'en-emma');
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => ({ src: el.src, volume: el.volume })))
    .toMatchObject({ src: expect.stringContaining('/system-voices/en-emma.mp3'), volume: 0.3 });
  await shot(page, 'voice-selector-preview');
  await stop.click();
  await expect(audio).toHaveAttribute('data-playing', '');
  await expect(dialog.getByRole('button', { name: 'Play Emma' })).toHaveAttribute('aria-pressed', 'false');

  // Favourite, shown under Favourites and kept in local storage.
  await dialog.getByRole('button', { name: 'Favourite: Emma' }).click();
  await expect(dialog.getByRole('button', { name: 'Favourite: Emma' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await chips.getByRole('button', { name: 'Favourites' }).click();
  await expect(dialog.locator('.voice-card__name')).toHaveText(['Emma']);
  expect(await page.evaluate(() => localStorage.getItem('favoriteVoices'))).toBe('["en-emma"]');

  // Pick a voice: the confirmation bar, then confirm.
  await chips.getByRole('button', { name: 'All' }).click();
  await dialog.getByRole('searchbox', { name: 'Search voices' }).fill('isla');
  await dialog.getByText('Isla', { exact: true }).click();
  const bar = dialog.getByRole('region', { name: 'Confirm voice' });
  await expect(bar).toContainText('You picked Isla');
  await shot(page, 'voice-selector-confirm');
  await bar.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
  expect(await page.evaluate(() => document.body.style.overflow)).toBe('');
  expect(await page.evaluate(() => localStorage.getItem('selectedVoice'))).toBe('en-isla');

  const prefs = await request.get('/api/users/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  expect(await prefs.json()).toMatchObject({ preferences: { voice: 'en-isla', defaultVoiceId: 'en-isla' } });

  // After a reload: still the chosen voice, in the recents, and still a favourite.
  await page.reload();
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine
  const again = await openSelector(page);
  await again.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Recent' }).click();
  await expect(again.locator('.voice-card__name')).toHaveText(['IslaCurrent']);
  await again.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Favourites' }).click();
  await expect(again.locator('.voice-card__name')).toHaveText(['Emma']);

  // Escape closes it.
  await page.keyboard.press('Escape');
  await expect(again).toBeHidden();
});

test('voice selector: outside click closes; focus stays inside', async ({ page, request }) => {
  const session = await registerViaApi(request);
  await openChat(page, session);
  const dialog = await openSelector(page);
  await expect(dialog.getByRole('searchbox', { name: 'Search voices' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.mouse.click(3, 3);
  await expect(dialog).toBeHidden();
});
