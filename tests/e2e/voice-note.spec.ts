import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { blockSocket, registerViaApi, shot, signInBrowser, type ApiSession } from './support.ts';

/**
 * Voice notes (spec §2 Input, §4 Recording, Voice note; SPEC.md C-10, V-1, V-3): Chromium's fake
 * microphone (playwright.config.ts) records a tone; the timer runs; stop shows the preview with
 * its waveform (wavesurfer.js), which plays; send shows the placeholder and then — a tone holds no
 * words for pocketsphinx — the clear "Transcription Error", never an invented transcript. In
 * Spanish, which this server cannot transcribe, the UI says before recording who will (the
 * browser, whose audio goes to its vendor) or that nobody can, and a note nobody could
 * transcribe is kept, playable. With the socket blocked, a note goes over `POST /message-audio`.
 */

async function openChat(
  page: Page,
  request: Parameters<typeof registerViaApi>[0],
  language?: 'es' | 'en',
): Promise<ApiSession> {
  const session = await registerViaApi(request, { name: 'Robin' });
  await signInBrowser(page, session);
  if (language) await page.evaluate((l) => localStorage.setItem('preferredLanguage', l), language);
  await page.goto('/chat');
  await expect(page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ })).toBeEnabled({
    timeout: 30_000,
  });
  return session;
}

/** What the server says it transcribes itself (`engines.transcription` of /health). */
async function transcriber(request: APIRequestContext): Promise<string> {
  const health = (await (await request.get('/health')).json()) as { engines: { transcription: string } };
  return health.engines.transcription;
}

/**
 * A stand-in for the browser's recogniser (Chrome's Web Speech API), which headless Chromium
 * cannot run (it needs the vendor's service): it hears `transcript` in whatever the note says.
 */
async function fakeRecognition(page: Page, transcript: string): Promise<void> {
  await page.addInitScript((text) => {
    class FakeRecognition {
      lang = '';
      continuous = false;
      interimResults = false;
      onresult: ((e: { results: { transcript: string }[][] }) => void) | null = null;
      onerror: (() => void) | null = null;
      start() {
        setTimeout(() => this.onresult?.({ results: [[{ transcript: text }]] }), 200);
      }
      stop() {}
    }
    Object.assign(window, { webkitSpeechRecognition: FakeRecognition, SpeechRecognition: FakeRecognition });
  }, transcript);
}

/** A browser with no speech recognition at all (Firefox). */
async function noRecognition(page: Page): Promise<void> {
  await page.addInitScript(() => {
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition'])
      Object.defineProperty(window, name, { value: undefined, configurable: true, writable: true });
  });
}

/**
 * The note a bubble plays, slowed down (playing loads the file, which starts at the default rate):
 * a note of a second or two could otherwise end, and its button turn back to Play, before the test
 * sees it playing on a busy machine.
 */
async function slowDown(bubble: Locator) {
  await bubble.locator('audio').evaluate((el: HTMLAudioElement) => {
    el.defaultPlaybackRate = 0.0625;
  });
}

async function record(page: Page) {
  await page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ }).click();
  const timer = page.getByTestId('voice-timer');
  await expect(timer).toBeVisible();
  // The seconds run (on a busy machine a tick may skip a second).
  await expect(timer).toHaveText(/^[1-9]\d* s$/, { timeout: 5_000 });
  await page.waitForTimeout(500);
  await shot(page, 'voice-note-recording');
  await page.getByRole('button', { name: /Detener grabación|Stop recording/ }).click();
  await expect(page.getByRole('group', { name: /Vista previa|Voice note preview/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Reproducir|Play)$/ })).toBeVisible();
  await expect(page.getByTestId('voice-preview-audio')).toHaveAttribute('src', /^blob:/);
  await shot(page, 'voice-note-preview');
}

test('record, preview and send a voice note: a tone gives the clear error, no invented text @any-width', async ({
  page,
  request,
}) => {
  // English: the server transcribes it itself when it has pocketsphinx (or a provider), so the
  // browser's recogniser stays off and no audio goes elsewhere.
  test.skip((await transcriber(request)) === 'hint', 'this server transcribes no language by itself');
  await openChat(page, request, 'en');
  await expect(page.getByTestId('voice-note-notice')).toHaveCount(0);
  await record(page);
  await page.getByRole('button', { name: 'Send voice note' }).click();
  const alert = page.getByRole('alert').filter({ hasText: /transcri/i });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText('Transcription Error');
  // A tone holds no words: nothing recognised, never an invented text.
  await expect(alert).toContainText(/voice note/);
  await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
  // Nothing stored, nothing invented: no user message nor reply remains.
  await expect(page.locator('.bubble--user')).toHaveCount(0);
  await expect(page.locator('.bubble--bot')).toHaveCount(0);
  await shot(page, 'voice-note-error');
});

test('in Spanish with nothing to transcribe it: said before recording, and the note is kept playable @any-width', async ({
  page,
  request,
}) => {
  test.skip((await transcriber(request)) === 'openai', 'this server transcribes Spanish itself');
  await noRecognition(page);
  await openChat(page, request, 'es');
  // Before recording: the notice, which also describes the record button.
  const notice = page.getByTestId('voice-note-notice');
  await expect(notice).toHaveText(
    'Este servidor no puede transcribir notas de voz en español: se guardan para que las escuches, pero Alma no las entenderá. Escríbele para que te responda.',
  );
  await expect(page.getByRole('button', { name: 'Grabar nota de voz' })).toHaveAccessibleDescription(
    /no puede transcribir notas de voz en español/,
  );
  await shot(page, 'voice-note-notice-none');
  await record(page);
  await page.getByRole('button', { name: 'Enviar nota de voz' }).click();
  // Not lost behind an error: the note stays, says what happened, and plays.
  const kept = page.locator('.bubble--user[data-voice-note="kept"]');
  await expect(kept).toContainText('Nota de voz sin transcribir', { timeout: 20_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);
  await slowDown(kept);
  await kept.getByRole('button', { name: 'Reproducir tu nota de voz' }).click();
  await expect(kept.getByRole('button', { name: 'Detener tu nota de voz' })).toBeVisible();
  await shot(page, 'voice-note-kept');
});

test('in Spanish the browser transcribes the note, as said before recording; it plays from the history', async ({
  page,
  request,
}) => {
  test.slow(); // records, then the server decodes, stores and writes the whole reply
  test.skip((await transcriber(request)) === 'openai', 'this server transcribes Spanish itself');
  await fakeRecognition(page, 'hola desde el navegador');
  await openChat(page, request, 'es');
  await expect(page.getByTestId('voice-note-notice')).toHaveText(
    'Tu navegador transcribe las notas de voz: en Chrome y Edge el audio se envía al servicio de voz de Google o Microsoft.',
  );
  await shot(page, 'voice-note-notice-browser');
  await record(page);
  await page.getByRole('button', { name: 'Enviar nota de voz' }).click();
  const note = page.locator('.bubble--user').filter({ hasText: 'hola desde el navegador' });
  await expect(note).toBeVisible({ timeout: 30_000 });
  await expect(note).toContainText('Transcrita por tu navegador');
  // The user's own note plays, like a reply's audio (its stored file, SPEC.md V-4).
  const play = note.getByRole('button', { name: 'Reproducir tu nota de voz' });
  await expect(play).toBeEnabled({ timeout: 20_000 });
  await expect(page.locator('.bubble--bot').last()).not.toBeEmpty({ timeout: 30_000 });
  await shot(page, 'voice-note-browser-transcribed');

  // From the history too, after a reload.
  await page.reload();
  const again = page.locator('.bubble--user').filter({ hasText: 'hola desde el navegador' });
  await slowDown(again);
  await again.getByRole('button', { name: 'Reproducir tu nota de voz' }).click();
  await expect(again.getByRole('button', { name: 'Detener tu nota de voz' })).toBeVisible();
});

test('a recorded voice note can be deleted', async ({ page, request }) => {
  await openChat(page, request);
  await record(page);
  await page.getByRole('button', { name: /Eliminar nota de voz|Delete voice note/ }).click();
  await expect(page.getByRole('group', { name: /Vista previa|Voice note preview/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Grabar nota de voz|Record voice note/ })).toBeVisible();
  await expect(page.locator('.bubble--user')).toHaveCount(0);
});

/** Non-blank pixels drawn on the canvases inside wavesurfer's shadow root. */
function waveformInk(page: Page): Promise<{ canvases: number; ink: number }> {
  return page.getByTestId('voice-waveform').evaluate((host) => {
    let canvases = 0;
    let ink = 0;
    for (const el of host.querySelectorAll('*')) {
      const root = el.shadowRoot;
      if (!root) continue;
      for (const canvas of root.querySelectorAll('canvas')) {
        if (canvas.width === 0 || canvas.height === 0) continue;
        canvases++;
        const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
        if (data) for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) ink++;
      }
    }
    return { canvases, ink };
  });
}

test('the preview draws the waveform, plays from the button and the keyboard', async ({ page, request }) => {
  test.slow(); // records, decodes and plays real audio: minutes on a machine shared by many runs
  await openChat(page, request);
  await record(page);
  const wave = page.getByTestId('voice-waveform');
  await expect(wave).toHaveAttribute('data-ready', 'true');
  await expect(wave).toHaveAttribute('role', 'slider');
  await expect(wave).toHaveAccessibleName(/Posición en la nota de voz|Voice note position/);
  await expect.poll(async () => (await waveformInk(page)).ink).toBeGreaterThan(50);
  expect((await waveformInk(page)).canvases).toBeGreaterThan(0);
  const box = await wave.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(40);

  const audio = page.getByTestId('voice-preview-audio');
  await page.getByRole('button', { name: /^(Reproducir|Play)$/ }).click();
  await expect(page.getByRole('button', { name: /^(Pausar|Pause)$/ })).toBeVisible();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0.2);
  await shot(page, 'voice-note-waveform-playing');
  await page.getByRole('button', { name: /^(Pausar|Pause)$/ }).click();
  await expect(page.getByRole('button', { name: /^(Reproducir|Play)$/ })).toBeVisible();

  // Keyboard: the waveform is a slider; Home/End seek, Space plays and pauses.
  await wave.focus();
  await expect(wave).toBeFocused();
  await page.keyboard.press('End');
  await expect(wave).toHaveAttribute('aria-valuenow', (await wave.getAttribute('aria-valuemax')) ?? '');
  await page.keyboard.press('Home');
  await expect(wave).toHaveAttribute('aria-valuenow', '0');
  await page.keyboard.press('ArrowRight');
  await expect(wave).toHaveAttribute('aria-valuenow', '1');
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeCloseTo(1, 0);
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: /^(Pausar|Pause)$/ })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: /^(Reproducir|Play)$/ })).toBeVisible();

  // Everything in the preview stays inside the viewport (375 px on the phone project).
  const preview = await page.getByRole('group', { name: /Vista previa|Voice note preview/ }).boundingBox();
  const viewport = page.viewportSize();
  expect((preview?.x ?? 0) + (preview?.width ?? 0)).toBeLessThanOrEqual(viewport?.width ?? 0);
  await expect(page.getByRole('button', { name: /Enviar nota de voz|Send voice note/ })).toBeInViewport();
  await expect(page.getByRole('button', { name: /Eliminar nota de voz|Delete voice note/ })).toBeInViewport();
});

test('with the socket blocked, the note goes over POST /message-audio and the reply appears @any-width', async ({
  page,
  request,
}) => {
  test.slow(); // records, then the server decodes, transcribes and writes the whole reply
  test.skip((await transcriber(request)) === 'openai', 'the provider would hear only a tone');
  await blockSocket(page);
  // Spanish: the server takes the browser's transcript (the hint, SPEC.md V-3).
  await fakeRecognition(page, 'hola por rest');
  await openChat(page, request, 'es');
  await record(page);
  const posted = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/message-audio',
  );
  await page.getByRole('button', { name: 'Enviar nota de voz' }).click();
  const req = await posted;
  expect(req.headers()['content-type']).toMatch(/^multipart\/form-data/);
  const res = await req.response();
  expect(res?.status(), await res?.text()).toBe(200);
  await expect(page.locator('.bubble--user').filter({ hasText: 'hola por rest' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.locator('.bubble--bot').last()).not.toBeEmpty({ timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: /transcri/i })).toHaveCount(0);
  await shot(page, 'voice-note-rest-fallback');
});

test('the avatar view records too: its control bar starts and stops the same recorder', async ({
  page,
  request,
}) => {
  await openChat(page, request);
  // On a phone the avatar view is behind the chat: close it to reach the control bar.
  const close = page.getByRole('button', { name: /Cerrar chat|Close chat/ });
  if (await close.isVisible()) await close.click();
  const controls = page.getByRole('toolbar', { name: /Controles del avatar|Avatar controls/ });
  await controls.getByRole('button', { name: /Grabar una nota de voz|Record a voice note/ }).click();
  const stop = controls.getByRole('button', { name: /Detener y revisar la nota|Stop and review the note/ });
  await expect(stop).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('voice-timer')).toHaveText(/^[1-9]\d* s$/, { timeout: 5_000 });
  await stop.click();
  // The preview appears in the composer (the chat opens for it on a phone).
  await expect(page.getByRole('group', { name: /Vista previa|Voice note preview/ })).toBeVisible();
  await expect(page.getByTestId('stage-record')).toBeDisabled();
  await shot(page, 'voice-note-stage-record');
  await page.getByRole('button', { name: /Eliminar nota de voz|Delete voice note/ }).click();
  await expect(page.getByTestId('stage-record')).toBeEnabled();
});
