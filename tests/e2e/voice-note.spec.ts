import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, shot, signInBrowser } from './support.ts';

/**
 * Voice notes (spec §4 Recording, Voice note; SPEC.md C-10, V-3): Chromium's fake microphone
 * (playwright.config.ts) records a tone; the timer runs; stop shows the preview; send shows the
 * placeholder and then — the e2e server has no transcriber and headless Chromium no speech
 * recognition — the clear "transcription not configured" error, never an invented transcript.
 */

async function openChat(page: Page, request: Parameters<typeof registerViaApi>[0]) {
  const session = await registerViaApi(request, { name: 'Robin' });
  await signInBrowser(page, session);
  await page.goto('/chat');
  await expect(page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ })).toBeEnabled();
}

async function record(page: Page) {
  await page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ }).click();
  const timer = page.getByTestId('voice-timer');
  await expect(timer).toBeVisible();
  await expect(timer).toHaveText(/^1 s$/, { timeout: 5_000 });
  await page.waitForTimeout(500);
  await shot(page, 'voice-note-recording');
  await page.getByRole('button', { name: /Detener grabación|Stop recording/ }).click();
  await expect(page.getByRole('group', { name: /Vista previa|Voice note preview/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Reproducir|Play)$/ })).toBeVisible();
  await expect(page.getByTestId('voice-preview-audio')).toHaveAttribute('src', /^blob:/);
  await shot(page, 'voice-note-preview');
}

test('record, preview and send a voice note: no transcriber gives the clear error', async ({
  page,
  request,
}) => {
  await openChat(page, request);
  await record(page);
  await page.getByRole('button', { name: /Enviar nota de voz|Send voice note/ }).click();
  const alert = page.getByRole('alert').filter({ hasText: /transcri/i });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText('Transcription Error');
  await expect(alert).toContainText(/no está configurada|not configured/);
  await expect(alert.getByRole('button', { name: /Reintentar|Retry/ })).toBeVisible();
  // Nothing stored, nothing invented: no user message nor reply remains.
  await expect(page.locator('.bubble--user')).toHaveCount(0);
  await expect(page.locator('.bubble--bot')).toHaveCount(0);
  await shot(page, 'voice-note-error');
});

test('a recorded voice note can be deleted', async ({ page, request }) => {
  await openChat(page, request);
  await record(page);
  await page.getByRole('button', { name: /Eliminar nota de voz|Delete voice note/ }).click();
  await expect(page.getByRole('group', { name: /Vista previa|Voice note preview/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ })).toBeVisible();
  await expect(page.locator('.bubble--user')).toHaveCount(0);
});
