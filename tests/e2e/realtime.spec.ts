import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type WebSocket } from '@playwright/test';
import { registerViaApi, shot, signInBrowser } from './support.ts';

/**
 * One socket for every signed-in screen (issue 13 §2): app/'s realtime provider connects on the
 * onboarding too, so an avatar upload's progress is pushed there (`upload:progress`) instead of
 * polled every 2 s; the socket is kept when the user moves on to the chat.
 */

const dir = 'tests/e2e/artifacts/models';
const model = join(dir, 'upload-rpm-v2.glb');

test.beforeAll(() => {
  if (existsSync(model)) return;
  mkdirSync(dir, { recursive: true });
  execFileSync(process.execPath, ['--import', 'tsx', 'tests/e2e/fixtures/make-model.ts', model], {
    stdio: 'inherit',
  });
});

test('the onboarding has the socket: upload progress is pushed, not polled; the chat keeps the socket @any-width', async ({
  page,
  request,
}) => {
  test.slow(); // a real upload processed by the server's worker
  const sockets: WebSocket[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/socket.io/')) sockets.push(ws);
  });
  const polls: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/upload\/avatar\/[^/]+\/status$/.test(new URL(r.url()).pathname)) polls.push(r.url());
  });
  const session = await registerViaApi(request, { onboarded: false });
  await signInBrowser(page, session);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/onboarding');
  await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

  const panel = page.getByRole('region', { name: 'Upload your own avatar (.glb)' });
  await panel.getByLabel('Name (optional)').fill('Live avatar');
  await panel.getByTestId('avatar-upload-input').setInputFiles(model);
  await expect(panel.getByText('Live avatar is ready!')).toBeVisible({ timeout: 90_000 });
  await shot(page, 'realtime-onboarding-upload');
  // The one status read right after the upload (the job may have moved on before listening);
  // every later step came over the socket.
  expect(polls.length).toBeLessThanOrEqual(1);

  // On to the chat: the same socket, not a new one.
  const avatars = page.getByRole('radiogroup', { name: 'Your avatars' });
  await expect(avatars.getByRole('radio', { name: /Live avatar/ })).toBeChecked({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radiogroup', { name: 'System voices' }).getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Continue' }).click();
  // Counted from here: while the worker processed the upload, a loaded machine may have missed a
  // ping and reconnected, which is the socket doing its job, not a second one.
  const opened = sockets.length;
  const current = sockets[opened - 1]!;
  expect(current.isClosed()).toBe(false);
  await page.getByRole('button', { name: 'Start chatting' }).click();
  await expect(page).toHaveURL(/\/chat/);
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 });
  expect(sockets).toHaveLength(opened);
  expect(current.isClosed()).toBe(false);
});

test('M-4 the socket opens as a WebSocket, never long-polling, and a reload connects again @any-width', async ({
  page,
  request,
}) => {
  const polling: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/socket.io/') && url.searchParams.get('transport') === 'polling') {
      polling.push(r.url());
    }
  });
  const sockets: string[] = [];
  page.on('websocket', (ws) => {
    if (ws.url().includes('/socket.io/')) sockets.push(ws.url());
  });
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 });
  expect(sockets).toHaveLength(2);
  expect(polling).toEqual([]);
});
