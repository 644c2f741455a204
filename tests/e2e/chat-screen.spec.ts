import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { blockSocket, registerViaApi, shot, signInBrowser, type ApiSession } from './support.ts';

/**
 * The chat screen of spec §2 against the real server (builtin reply engine): whole conversations
 * in both languages, the sessions sidebar with its dialogs and the export download, history
 * paging, personality changes online and offline, the mobile overlay and the limit banner.
 */

type Lang = 'es' | 'en';

async function openChat(page: Page, session: ApiSession, language: Lang = 'en'): Promise<void> {
  await signInBrowser(page, session);
  await page.evaluate((l) => localStorage.setItem('preferredLanguage', l), language);
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine
}

const auth = (s: ApiSession) => ({ authorization: `Bearer ${s.token}` });

/** Sends `count` messages over REST (`POST /message`) into one session, a few at a time. */
async function sendViaRest(
  request: APIRequestContext,
  session: ApiSession,
  texts: string[],
  options: { sessionId?: string; concurrency?: number } = {},
): Promise<string> {
  let sessionId = options.sessionId;
  const queue = [...texts];
  if (!sessionId) {
    const first = await request.post('/message', {
      headers: auth(session),
      data: { message: queue.shift() },
    });
    expect(first.ok(), await first.text()).toBe(true);
    sessionId = ((await first.json()) as { sessionId: string }).sessionId;
  }
  const id = sessionId;
  async function worker() {
    for (let text = queue.shift(); text !== undefined; text = queue.shift()) {
      const res = await request.post('/message', {
        headers: auth(session),
        data: { message: text, sessionId: id },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 1 }, worker));
  return id;
}

/** Waits until `count` replies are shown and none is still streaming. */
async function waitForReplies(page: Page, count: number): Promise<void> {
  const log = page.getByRole('log');
  await expect(log.locator('article.bubble--bot')).toHaveCount(count, { timeout: 20_000 });
  await expect(log.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 20_000 });
}

/** On a phone the sessions sidebar is a drawer: open it before using it. */
async function sessionsPanel(page: Page, language: Lang = 'en') {
  const drawer = page.locator('#sessions-drawer');
  if (
    test.info().project.name === 'phone' &&
    !(await drawer.evaluate((el) => el.classList.contains('sessions--open')))
  ) {
    await page
      .getByRole('button', { name: language === 'es' ? 'Abrir conversaciones' : 'Open conversations' })
      .click();
  }
  await expect(drawer).toBeVisible();
  return drawer;
}

const CONVERSATION = {
  es: {
    name: 'Lucía',
    turns: [
      'Hola, me llamo Lucía.',
      'Mañana tengo un examen de historia con mi amiga Sara y estoy nerviosa.',
      '¿Recuerdas cómo me llamo?',
    ],
    input: 'Escribe tu mensaje',
    context: 'Contexto',
    people: 'Personas',
    topic: 'examen',
    untitled: 'Conversación sin título',
    mood: /Ánimo: /,
  },
  en: {
    name: 'Sam',
    turns: [
      'Hi! My name is Sam.',
      'I start a new job on Monday and my friend Ana says I will love it.',
      'Do you remember my name?',
    ],
    input: 'Write your message',
    context: 'Context',
    people: 'People',
    topic: 'job',
    untitled: 'Untitled conversation',
    mood: /Mood: /,
  },
} as const;

for (const language of ['es', 'en'] as const) {
  test(`a whole conversation in ${language}: several turns, the name remembered, context and title`, async ({
    page,
    request,
  }) => {
    const c = CONVERSATION[language];
    const session = await registerViaApi(request, { name: c.name, language });
    await openChat(page, session, language);
    const log = page.getByRole('log');
    const input = page.getByLabel(c.input);

    for (const [i, turn] of c.turns.entries()) {
      await input.fill(turn);
      await input.press('Enter');
      await expect(log.getByText(turn)).toBeVisible();
      await waitForReplies(page, i + 1);
    }
    // The last turn asks for the name: the companion remembers it from the first.
    await expect(log.locator('article.bubble--bot').last()).toContainText(c.name);

    // The session got a title after the first exchange, and a dominant emotion.
    await expect(page.locator('#chat-title')).not.toHaveText(c.untitled);
    await expect(page.locator('.chat-panel__mood')).toHaveText(c.mood);

    // The collapsible context panel: summary, topics, people, key points (the last 3).
    const toggle = page.getByRole('button', { name: c.context, exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    const panel = page.locator('.context__panel');
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(c.people);
    await expect(panel).toContainText(c.name);
    await expect(panel).toContainText(c.topic);
    expect(await panel.locator('.context__points li').count()).toBeLessThanOrEqual(3);
    await shot(page, `chat-screen-${language}-conversation-context`);
    await toggle.click();
    await expect(panel).toBeHidden();
  });
}

test('sessions: list, new with a title, rename, export download, delete, refresh', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  const seeded = await sendViaRest(request, session, ['I love hiking in the mountains.']);
  await openChat(page, session);

  // The only session is selected on load and its messages are shown.
  await expect(page.getByRole('log').getByText('I love hiking in the mountains.')).toBeVisible();

  // New, with an optional title: selected, with no messages.
  let sidebar = await sessionsPanel(page);
  await sidebar.getByRole('button', { name: 'New conversation' }).click();
  const create = page.getByRole('dialog', { name: 'New conversation' });
  await create.getByLabel('Title (optional)').fill('Trip plans');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.locator('#chat-title')).toHaveText('Trip plans');
  await expect(page.getByRole('log').getByText('I love hiking in the mountains.')).toHaveCount(0);

  // Rename.
  sidebar = await sessionsPanel(page);
  await sidebar.getByRole('button', { name: 'Rename: Trip plans' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename conversation' });
  await rename.getByLabel('New title').fill('Rome in May');
  await shot(page, 'chat-screen-rename-dialog');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('#chat-title')).toHaveText('Rome in May');
  await expect(sidebar.getByText('Rome in May')).toBeVisible();

  // Export the seeded session: a JSON file named after the session id, holding its messages.
  const seededRow = sidebar.locator('.session').filter({ hasNotText: 'Rome in May' });
  await seededRow.getByRole('button', { name: /^Export: / }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export conversation' });
  await expect(exportDialog).toContainText(`${seeded}.json`);
  await shot(page, 'chat-screen-export-dialog');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    exportDialog.getByRole('button', { name: 'Download JSON' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${seeded}.json`);
  const document = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    session: { sessionId: string };
    messages: { role: string; content: string }[];
  };
  expect(document.session.sessionId).toBe(seeded);
  expect(document.messages.map((m) => m.content)).toContain('I love hiking in the mountains.');
  expect(document.messages.some((m) => m.role === 'assistant' && m.content.length > 0)).toBe(true);
  await expect(exportDialog).toBeHidden();
  await expect(page.locator('.toast')).toContainText('downloaded');

  // Delete the selected session (confirm): the first remaining one is selected.
  sidebar = await sessionsPanel(page);
  await sidebar.getByRole('button', { name: 'Delete: Rome in May' }).click();
  await page
    .getByRole('dialog', { name: 'Delete conversation' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(sidebar.getByText('Rome in May')).toHaveCount(0);
  await expect(page.getByRole('log').getByText('I love hiking in the mountains.')).toBeVisible();

  // Refresh shows a session created elsewhere (here, over the API).
  const other = await request.post('/chat/sessions', {
    headers: auth(session),
    data: { title: 'From my phone' },
  });
  expect(other.ok()).toBe(true);
  sidebar = await sessionsPanel(page);
  await sidebar.getByRole('button', { name: 'Refresh conversations' }).click();
  await expect(sidebar.getByText('From my phone')).toBeVisible();
  await shot(page, 'chat-screen-sessions');
});

test('history: scrolling near the top loads the older page and the view stays put', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  // 33 exchanges = 66 messages: page 1 holds the latest 50, page 2 the 16 before them.
  const texts = Array.from({ length: 33 }, (_, i) => `Note number ${i + 1} for the history test.`);
  const first = texts.shift() ?? '';
  const sessionId = await sendViaRest(request, session, [first]);
  await sendViaRest(request, session, texts, { sessionId, concurrency: 6 });
  await openChat(page, session);

  const log = page.getByRole('log');
  await expect(log.locator('article')).toHaveCount(50);
  // Starts at the bottom; no older message yet.
  await expect(log.getByText(first)).toHaveCount(0);

  // Mark the oldest message on screen, then scroll to the top: the older page loads above it.
  const before = await log.evaluate((el) => {
    const oldest = el.querySelector('article');
    oldest?.setAttribute('data-marked', 'true');
    el.scrollTop = 0;
    return (oldest?.getBoundingClientRect().top ?? 0) - el.getBoundingClientRect().top;
  });
  await expect(log.locator('article')).toHaveCount(66);
  await expect(log.getByText(first)).toBeAttached();
  const after = await log.evaluate(
    (el) =>
      (el.querySelector('[data-marked]')?.getBoundingClientRect().top ?? 0) - el.getBoundingClientRect().top,
  );
  // The message the reader was looking at did not move.
  expect(Math.abs(after - before)).toBeLessThanOrEqual(2);
  expect(await log.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);

  // Away from the bottom, the new-messages button takes the reader back down.
  await page.getByRole('button', { name: 'New messages' }).click();
  await expect(page.getByRole('button', { name: 'New messages' })).toBeHidden();
  await shot(page, 'chat-screen-history');
});

test('personality: searched and confirmed online (server message), then offline (local message)', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { language: 'es' });
  await sendViaRest(request, session, ['Hola, ¿qué tal?']);
  await openChat(page, session, 'es');
  const log = page.getByRole('log');

  // Online: search, pick, confirm → POST /personality; the server's system message appears.
  await page.getByRole('button', { name: /^Personalidad: Casual/ }).click();
  const menu = page.getByRole('dialog', { name: 'Personalidades' });
  await menu.getByLabel('Buscar personalidad').fill('form');
  await expect(menu.getByRole('button')).toHaveCount(1);
  await menu.getByRole('button', { name: /Formal/ }).click();
  await expect(menu).toContainText('¿Cambiar la personalidad a Formal?');
  await shot(page, 'chat-screen-personality-confirm');
  await menu.getByRole('button', { name: 'Cambiar personalidad' }).click();
  await expect(
    log.locator('article.bubble--system').getByText('Personalidad cambiada a Formal.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Personalidad: Formal/ })).toBeVisible();

  // Offline. The issue says "server stopped"; stopping the suite's one shared server would break
  // the other tests, so the browser is cut off from it instead (context.setOffline): /health
  // fails, the socket is dropped, and the screen must behave exactly as with a stopped server.
  const input = page.getByLabel('Escribe tu mensaje');
  await input.fill('¿Sigues ahí?');
  await page.context().setOffline(true);
  await expect(page.locator('[data-status="offline"]')).toBeVisible({ timeout: 15_000 });
  await expect(input).toBeDisabled();
  await expect(input).toHaveAttribute('placeholder', /El servidor no está disponible/);

  // A send attempt adds a local "unavailable" message and sends nothing.
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(log.getByText(/Tu mensaje no se ha enviado/)).toBeVisible();

  // The personality still changes, locally, with the offline variant of the message.
  await page.getByRole('button', { name: /^Personalidad: Formal/ }).click();
  await page
    .getByRole('dialog', { name: 'Personalidades' })
    .getByRole('button', { name: /Técnica/ })
    .click();
  await page
    .getByRole('dialog', { name: 'Personalidades' })
    .getByRole('button', { name: 'Cambiar personalidad' })
    .click();
  await expect(
    log.getByText(/Personalidad cambiada a Técnica en este dispositivo \(sin conexión\)/),
  ).toBeVisible();
  await shot(page, 'chat-screen-offline');

  // Back online: the status recovers and the input works again.
  await page.context().setOffline(false);
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 15_000 });
  await expect(input).toBeEnabled();
});

test('mobile: the chat overlay closes when dragged down more than 120 px, or with Escape', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'phone', 'the overlay exists up to 1023 px');
  const session = await registerViaApi(request);
  await sendViaRest(request, session, ['Good morning!']);
  await openChat(page, session);
  const panel = page.locator('main.chat-panel');
  const handle = page.getByTestId('chat-drag-handle');
  await expect(panel).toHaveAttribute('data-overlay', 'open');
  await shot(page, 'chat-screen-overlay-open');

  // A real touch drag through the DevTools protocol (pointer events of type touch).
  const cdp = await page.context().newCDPSession(page);
  const rest = await handle.boundingBox();
  async function touchDrag(dy: number) {
    // Start from the resting place (a snap-back animates for 0.25 s).
    await expect.poll(async () => (await handle.boundingBox())?.y).toBe(rest?.y);
    const box = await handle.boundingBox();
    if (!box) throw new Error('no handle');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let step = 1; step <= 6; step++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x, y: y + (dy * step) / 6 }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  // 100 px is not enough: it snaps back.
  await touchDrag(100);
  await expect(panel).toHaveAttribute('data-overlay', 'open');
  // More than 120 px closes it; the avatar and its control bar remain, with "open chat".
  await touchDrag(170);
  await expect(panel).toHaveAttribute('data-overlay', 'closed');
  await expect(panel).toBeHidden();
  const reopen = page.getByRole('button', { name: 'Open chat' });
  await expect(reopen).toBeFocused();
  await shot(page, 'chat-screen-overlay-closed');

  await reopen.click();
  await expect(panel).toHaveAttribute('data-overlay', 'open');
  await expect(page.getByRole('log').getByText('Good morning!')).toBeVisible();

  // Escape closes it too.
  await page.getByLabel('Write your message').focus();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveAttribute('data-overlay', 'closed');
});

test('limit: at the plan cap a send shows the banner with its two buttons', async ({ page, request }) => {
  // Every reply filling the quota is also synthesised as speech (SPEC.md S-1): allow for it.
  test.setTimeout(180_000);
  const session = await registerViaApi(request);
  const usage = await request.get('/auth/me/usage', { headers: auth(session) });
  const cap = ((await usage.json()) as { limits: { messages: number } }).limits.messages;
  // Fill the month's quota over REST (the real cap, FREE_MESSAGES_PER_MONTH), then one more in the UI.
  const texts = Array.from({ length: cap }, (_, i) => `message ${i + 1}`);
  const sessionId = await sendViaRest(request, session, texts.slice(0, 1));
  await sendViaRest(request, session, texts.slice(1), { sessionId, concurrency: 40 });
  await openChat(page, session);

  const input = page.getByLabel('Write your message');
  await input.fill('One more, please.');
  await input.press('Enter');
  const banner = page.getByRole('alert').filter({ hasText: 'Limit reached' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('link', { name: 'See my plan' })).toHaveAttribute('href', '/dashboard');
  await shot(page, 'chat-screen-limit');
  await banner.getByRole('button', { name: 'Dismiss notice' }).click();
  await expect(banner).toBeHidden();
});

test('options menu: change avatar and voice, and clear history (starts a new, empty conversation)', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  await sendViaRest(request, session, ['Remember the blue kite.']);
  await openChat(page, session);
  const stage = page.getByRole('region', { name: 'Avatar', exact: true });
  await expect(stage).toContainText('Witch');

  await page.getByRole('button', { name: 'Options' }).click();
  await shot(page, 'chat-screen-options-menu');
  await page.getByRole('dialog', { name: 'Options' }).getByRole('button', { name: 'Change avatar' }).click();
  const avatars = page.getByRole('dialog', { name: 'Choose your avatar' });
  await avatars.getByText('Robot', { exact: true }).click();
  await avatars.getByRole('button', { name: 'Confirm' }).click();
  await expect(stage).toContainText('Robot');

  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('dialog', { name: 'Options' }).getByRole('button', { name: 'Change voice' }).click();
  const voices = page.getByRole('dialog', { name: 'Choose a voice' });
  // The selector pages its 25 voices; search brings Oliver onto the first page.
  await voices.getByRole('searchbox', { name: 'Search voices' }).fill('oliver');
  await voices.getByText('Oliver', { exact: true }).click();
  await voices.getByRole('button', { name: 'Confirm' }).click();
  await expect(voices).toBeHidden();
  const prefs = await request.get('/api/users/preferences', { headers: auth(session) });
  expect(await prefs.json()).toMatchObject({ preferences: { avatar: 'robot', voice: 'en-oliver' } });

  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('dialog', { name: 'Options' }).getByRole('button', { name: 'Clear history' }).click();
  await page
    .getByRole('dialog', { name: 'Clear history' })
    .getByRole('button', { name: 'Clear and start again' })
    .click();
  await expect(page.getByRole('log').getByText('Remember the blue kite.')).toHaveCount(0);
  await expect(page.getByText('Start talking to Alma')).toBeVisible();
  // The earlier conversation is still in the list.
  const sidebar = await sessionsPanel(page);
  await expect(sidebar.locator('.session')).toHaveCount(2);
});

/* ── What a user hits in the chat (issue 11) ─────────────────────────────────────────────────── */

/** Types a message into the composer and sends it with Enter. */
async function say(page: Page, text: string, language: Lang = 'en'): Promise<void> {
  const input = page.getByLabel(CONVERSATION[language].input);
  await input.fill(text);
  await input.press('Enter');
}

test('a message sent from the chat is exported with the avatar on screen (SPEC.md C-13) @any-width', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request); // the avatar on screen: the witch
  await openChat(page, session);
  await say(page, 'Hello there, how are you?');
  await waitForReplies(page, 1);
  const { sessions } = (await (await request.get('/chat/sessions', { headers: auth(session) })).json()) as {
    sessions: { sessionId: string }[];
  };
  const exported = await request.get(`/chat/export/${sessions[0]?.sessionId ?? ''}`, {
    headers: auth(session),
  });
  const { messages } = (await exported.json()) as { messages: { role: string; avatarId: string | null }[] };
  expect(messages.map((m) => [m.role, m.avatarId])).toEqual([
    ['user', 'witch'],
    ['assistant', 'witch'],
  ]);
});

test('without a socket: replies keep their audio and the sidebar counts follow (REST fallback) @any-width', async ({
  page,
  request,
}) => {
  test.slow(); // two whole replies, each spoken, over REST
  await blockSocket(page);
  const session = await registerViaApi(request);
  await signInBrowser(page, session);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/chat');
  // The header says "Connecting" while socket.io keeps trying; the server answers its health
  // check, so the input is open and sends go over REST.
  await expect(page.getByLabel(CONVERSATION.en.input)).toBeEnabled({ timeout: 30_000 });
  await say(page, 'Hello, I am testing without a socket.');
  await waitForReplies(page, 1);
  const sidebar = await sessionsPanel(page);
  await expect(sidebar.locator('.session__meta').first()).toContainText('2 messages');
  if (test.info().project.name === 'phone') await page.keyboard.press('Escape');

  await say(page, 'And a second message, please.');
  await waitForReplies(page, 2);
  // The reply's spoken audio plays again from its message.
  const reply = page.getByRole('log').locator('article.bubble--bot').last();
  const listen = reply.getByRole('button', { name: "Play the reply's audio" });
  await expect(listen).toBeEnabled({ timeout: 20_000 });
  await listen.click();
  await expect(reply.getByRole('button', { name: "Stop the reply's audio" })).toBeVisible();
  // Both exchanges counted, live (nothing announces them over REST).
  const after = await sessionsPanel(page);
  await expect(after.locator('.session__meta').first()).toContainText('4 messages');
  await shot(page, 'chat-screen-rest-fallback');
});

test('a session keeps its personality on a new device; the next message does not revert it @any-width', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  const sessionId = await sendViaRest(request, session, ['Good morning.']);
  const changed = await request.post('/personality', {
    headers: auth(session),
    data: { sessionId, personality: 'formal' },
  });
  expect(changed.ok()).toBe(true);
  // A browser that never chose a personality (the local choice is "default").
  await openChat(page, session);
  await expect(page.getByRole('button', { name: /^Personality: Formal/ })).toBeVisible();
  await say(page, 'Could you summarise our conversation?');
  await waitForReplies(page, 2);
  const { sessions } = (await (await request.get('/chat/sessions', { headers: auth(session) })).json()) as {
    sessions: { sessionId: string; personality: string }[];
  };
  expect(sessions.find((s) => s.sessionId === sessionId)?.personality).toBe('formal');
  const reply = page.getByRole('log').locator('article.bubble--bot').last();
  await expect(reply).not.toBeEmpty();
  const messages = (await (
    await request.get(`/chat/messages?sessionId=${sessionId}`, { headers: auth(session) })
  ).json()) as { items: { role: string; personality: string | null }[] };
  expect(messages.items.at(-1)).toMatchObject({ role: 'assistant', personality: 'formal' });
});

test('scrolled up: sending brings you to your message; a new conversation has no stale "new messages"', async ({
  page,
  request,
}) => {
  test.slow(); // seeds a conversation long enough to scroll
  const session = await registerViaApi(request);
  const texts = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of a long conversation.`);
  const first = texts.shift() ?? '';
  const sessionId = await sendViaRest(request, session, [first]);
  await sendViaRest(request, session, texts, { sessionId, concurrency: 4 });
  await openChat(page, session);
  if (test.info().project.name === 'phone') {
    // A phone's chat is a half-height sheet (SPEC.md ST-4) whose log holds about one reply: the
    // reply that follows the sent message scrolls it out, as following the bottom should. At full
    // height the log has room for both.
    await page.getByRole('button', { name: 'Expand the chat' }).click();
    await expect(page.locator('main.chat-panel')).toHaveAttribute('data-sheet', 'full');
  }
  const log = page.getByRole('log');
  await expect(log.locator('article')).toHaveCount(24);
  const newMessages = page.getByRole('button', { name: 'New messages' });

  // Scrolled up, then a send: the view goes to the message just sent.
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(newMessages).toBeVisible();
  await say(page, 'This one should come into view.');
  const mine = log.locator('article.bubble--user').filter({ hasText: 'This one should come into view.' });
  await expect(mine).toBeInViewport();
  await expect(newMessages).toBeHidden();
  await waitForReplies(page, 13);

  // Scrolled up again, then a new conversation: nothing below it, so no "new messages" button.
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(newMessages).toBeVisible();
  const sidebar = await sessionsPanel(page);
  await sidebar.getByRole('button', { name: 'New conversation' }).click();
  await page
    .getByRole('dialog', { name: 'New conversation' })
    .getByRole('button', { name: 'Create' })
    .click();
  await expect(log.getByText('Start talking to Alma')).toBeVisible();
  await expect(newMessages).toBeHidden();
  await shot(page, 'chat-screen-new-session-no-stale-button');
});

test('over the socket: a surprised reply wears its badge, and the sidebar counts each exchange as it ends (C-17) @any-width', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request);
  await openChat(page, session, 'es');
  await say(page, '¡No me digas! No me lo esperaba para nada', 'es');
  await waitForReplies(page, 1);
  const reply = page.getByRole('log').locator('article.bubble--bot').last();
  await expect(reply.locator('.bubble__emotion')).toHaveText('Sorprendida');
  const sidebar = await sessionsPanel(page, 'es');
  await expect(sidebar.locator('.session__meta').first()).toContainText('2 mensajes');
  if (test.info().project.name === 'phone') await page.keyboard.press('Escape');
  const listReads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === '/chat/sessions') listReads.push(r.url());
  });

  await say(page, 'Cuéntame un chiste', 'es');
  await waitForReplies(page, 2);
  // Counted live from the socket's events: no reload, no read of the list.
  await expect((await sessionsPanel(page, 'es')).locator('.session__meta').first()).toContainText(
    '4 mensajes',
  );
  expect(listReads).toEqual([]);
  await shot(page, 'chat-screen-surprised-badge');
});
