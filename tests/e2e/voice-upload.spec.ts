import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, shot, signInBrowser } from './support.ts';
import { wavOf } from './wav.ts';

/**
 * Custom voice upload in the voice selector (SPEC.md VU-1…VU-8): consent before the file input,
 * the spec's message for a non-audio file, a real WAV uploaded and analysed, listed under
 * "Custom" and selected as the voice. Runs at 1280 px and 375 px.
 */

/** A 3 s, 220 Hz voice-like harmonic tone, 16-bit mono WAV at 22.05 kHz. */
function voiceWav(): Buffer {
  const tone = (t: number) =>
    Math.sin(2 * Math.PI * 220 * t) +
    0.5 * Math.sin(2 * Math.PI * 440 * t) +
    0.3 * Math.sin(2 * Math.PI * 660 * t);
  return wavOf(22_050, 3, (t) => (tone(t) / 1.8) * 0.5);
}

async function openSelector(page: Page) {
  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('dialog', { name: 'Options' }).getByRole('button', { name: 'Change voice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a voice' });
  await expect(dialog.locator('.voice-card').first()).toBeVisible();
  return dialog;
}

test('voice upload: consent, validation, upload a WAV, see it under Custom and select it', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine

  const dialog = await openSelector(page);
  await dialog.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Custom' }).click();
  const panel = dialog.getByRole('region', { name: 'Upload your voice' });
  await expect(panel).toContainText('approximation');
  const file = panel.getByLabel('Audio file');
  await expect(file).toBeDisabled();

  // Consent first; keyboard works (Space toggles the checkbox).
  const consent = panel.getByRole('checkbox', { name: /I confirm this is my voice/ });
  await consent.focus();
  await page.keyboard.press('Space');
  await expect(consent).toBeChecked();
  await expect(file).toBeEnabled();

  // A text file is refused with the spec's message, before anything is sent.
  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not audio') });
  await expect(panel.getByRole('alert')).toHaveText('Only audio files are allowed (WAV, MP3, M4A, OGG)');

  await panel.getByLabel('Name (optional)').fill('My recorded voice');
  await file.setInputFiles({ name: 'sample.wav', mimeType: 'audio/wav', buffer: voiceWav() });
  await expect(
    panel.getByText('Voice “My recorded voice” uploaded. Confirm it below to use it.'),
  ).toBeVisible();
  const card = dialog.locator('.voice-card', { hasText: 'My recorded voice' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Custom · approximation');
  await expect(card).toContainText('Female');
  await shot(page, 'voice-upload-done');

  // The new voice is the pending choice: confirm it.
  await expect(dialog.getByRole('region', { name: 'Confirm voice' })).toContainText('My recorded voice');
  await dialog
    .getByRole('region', { name: 'Confirm voice' })
    .getByRole('button', { name: 'Confirm' })
    .click();
  await expect(dialog).toBeHidden();

  const prefs = await request.get('/api/users/preferences', {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await prefs.json()) as { preferences: { defaultVoiceId: string } };
  expect(body.preferences.defaultVoiceId).toMatch(/^custom-/);

  // Reopened, it is listed under Custom as the current voice; the page has no sideways scroll.
  const again = await openSelector(page);
  await again.getByRole('group', { name: 'Category' }).getByRole('button', { name: 'Custom' }).click();
  await expect(again.locator('.voice-card', { hasText: 'My recorded voice' })).toContainText('Current');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
