import { expect, test } from '@playwright/test';
import { startTestRedis } from '../../server/src/test-support/redis-server.ts';
import { startOwnServer } from './own-server.ts';
import { registerViaApi, shot, signInBrowser } from './support.ts';

/**
 * What the server pushes and a person sees change on an open chat, with no reload and no action
 * of theirs (issue 11): the server's health in the header (SPEC.md H-2), and the typing dots
 * going away when the companion stops writing (`chat:typing` false, C-4).
 */
test.use({ locale: 'es-ES' });

test('H-2 the header says the server has trouble while its Redis is gone and is online again once it is back, pushed over the socket @any-width', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000); // a server of its own to start
  const redis = await startTestRedis();
  // The monitor asks Redis every 250 ms, so a change is pushed within a second or two.
  const server = await startOwnServer({ REDIS_URL: redis.url, HEALTH_CHECK_INTERVAL_MS: '250' });
  const request = await playwright.request.newContext({ baseURL: server.url });
  const context = await browser.newContext({ baseURL: server.url, locale: 'es-ES' });
  try {
    const session = await registerViaApi(request, { name: 'Estela', language: 'es' });
    const page = await context.newPage();
    const pushed: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const status = /"server:status",\{"status":"(\w+)"/.exec(String(payload))?.[1];
        if (status) pushed.push(status);
      }),
    );
    await signInBrowser(page, session);
    await page.goto('/chat');
    const pill = page.getByRole('status', { name: /^Estado del servidor/ });
    await expect(pill).toHaveAccessibleName('Estado del servidor: En línea', { timeout: 30_000 });

    await redis.down();
    await expect(pill).toHaveAccessibleName('Estado del servidor: Con problemas', { timeout: 15_000 });
    await expect(pill).toHaveText('Con problemas');
    // Still usable: the composer stays open (only "offline" closes it).
    await expect(page.getByLabel('Escribe tu mensaje')).toBeEnabled();
    await shot(page, 'server-status-degraded');

    await redis.up();
    await expect(pill).toHaveAccessibleName('Estado del servidor: En línea', { timeout: 15_000 });
    // Each change came as a push on the open socket: the first status on connect, then the two.
    expect(pushed).toEqual(['online', 'degraded', 'online']);
  } finally {
    await context.close();
    await request.dispose();
    await server.stop();
    await redis.stop();
  }
});

test('C-4 the typing dots leave when the companion stops writing, also on a device that did not send @any-width', async ({
  browser,
  request,
}) => {
  // The same person on two devices: this one watches the conversation, the other sends (REST).
  const session = await registerViaApi(request, { language: 'es' });
  const auth = { authorization: `Bearer ${session.token}` };
  const first = await request.post('/message', { headers: auth, data: { message: 'Hola, ¿qué tal?' } });
  expect(first.ok(), await first.text()).toBe(true);
  const { sessionId } = (await first.json()) as { sessionId: string };

  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  await signInBrowser(page, session);
  await page.goto('/chat');
  const log = page.getByRole('log');
  await expect(log.locator('article.bubble--bot')).toHaveCount(1, { timeout: 30_000 });
  // The dots may show only for a moment before the text streams in: note every time they do.
  const typingShown = () => page.evaluate(() => Number(document.body.dataset.typingShown ?? 0));
  await page.evaluate(() => {
    new MutationObserver(() => {
      if (document.querySelector('.bubble--typing'))
        document.body.dataset.typingShown = String(Number(document.body.dataset.typingShown ?? 0) + 1);
    }).observe(document.querySelector('[role="log"]') ?? document.body, { childList: true, subtree: true });
  });

  const sent = await request.post('/message', {
    headers: auth,
    data: { message: 'Cuéntame un chiste', sessionId },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  await expect(log.locator('article.bubble--bot')).toHaveCount(2, { timeout: 20_000 });
  await expect(log.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
  expect(await typingShown(), 'the dots showed while the companion was writing').toBeGreaterThan(0);
  // The reply is whole and the companion said it stopped writing: no dots, and none come back.
  await expect(page.getByText('Alma está escribiendo')).toHaveCount(0);
  await expect(log.locator('.bubble--typing')).toHaveCount(0);
  await page.waitForTimeout(500);
  await expect(log.locator('.bubble--typing')).toHaveCount(0);
  await shot(page, 'typing-gone-on-the-other-device');
  await context.close();
});
