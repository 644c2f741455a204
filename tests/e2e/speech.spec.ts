import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registerViaApi, shot, signInBrowser, type ApiSession } from './support.ts';

/**
 * Spoken replies (spec §1, §2, §4; SPEC.md S-1…S-7) against the real server and its builtin
 * espeak engine: the `speech:chunk`s of a reply go through the Web Audio queue in order (read
 * from the page's `window.__almaAudio` debug hook, which the queue itself fills), the sound
 * switch of the control bar stops playback and survives a reload, and the bot audio button
 * checks the stored file: available for a fresh reply, the cleanup alert once the file is gone.
 */

interface AudioHook {
  played: {
    replyId: string;
    seq: number;
    placedAt: number;
    startAt: number;
    length: number;
    durationMs: number;
    decodedMs: number;
  }[];
  stopped: { replyId: string; heardUntilMs: number }[];
}

const readHook = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __almaAudio?: AudioHook }).__almaAudio ?? { played: [], stopped: [] },
  );

async function openChat(page: Page, session: ApiSession): Promise<void> {
  await signInBrowser(page, session);
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/chat');
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine
}

async function say(page: Page, text: string): Promise<void> {
  const open = page.getByRole('button', { name: 'Open chat' });
  if (await open.isVisible()) await open.click();
  const input = page.getByLabel('Write your message');
  await input.fill(text);
  await input.press('Enter');
  await expect(page.getByRole('log').getByText(text)).toBeVisible();
}

/** On a phone the control bar is behind the chat overlay: close it to reach the toggle. */
async function soundToggle(page: Page) {
  const toggle = page.getByTestId('sound-toggle');
  const close = page.getByRole('button', { name: 'Close chat' });
  if (test.info().project.name === 'phone' && (await close.isVisible())) await close.click();
  await expect(toggle).toBeVisible();
  return toggle;
}

const lastBot = (page: Page) => page.getByRole('log').locator('article.bubble--bot').last();

test('a reply is spoken: its chunks play in order through the queue; the audio button is available @any-width', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { name: 'Sam' });
  await openChat(page, session);
  await say(page, 'Hi! Tell me something nice about the sea, in two sentences.');

  await expect.poll(async () => (await readHook(page)).played.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const bot = lastBot(page);
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible({ timeout: 20_000 });
  await expect(bot.getByRole('button', { name: "Play the reply's audio" })).toBeVisible();

  const { played } = await readHook(page);
  const replies = new Set(played.map((p) => p.replyId));
  expect(replies.size).toBe(1);
  const seqs = played.map((p) => p.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);
  await shot(page, 'speech-audio-available');

  // Playing the stored file: the button shows it plays, then it can be stopped. The reply is a
  // couple of seconds long, so Stop comes straight after (a screenshot in between can outlast it).
  await bot.getByRole('button', { name: "Play the reply's audio" }).click();
  await expect(bot.locator('[data-audio-state="playing"]')).toBeVisible();
  await bot.getByRole('button', { name: "Stop the reply's audio" }).click();
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible();
  // Played again and left alone, it ends by itself and the button offers it once more.
  await bot.getByRole('button', { name: "Play the reply's audio" }).click();
  await expect(bot.locator('[data-audio-state="playing"]')).toBeVisible();
  await shot(page, 'speech-audio-playing');
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible({ timeout: 20_000 });
});

test("S-8: a reply's chunks decode to their durationMs and play back to back, without gaps @any-width", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000); // a first chat load and a spoken reply on a busy machine
  const session = await registerViaApi(request, { name: 'Sam' });
  await openChat(page, session);
  await say(page, 'Please tell me a long story about a lighthouse keeper and his cat.');
  await expect.poll(async () => (await readHook(page)).played.length, { timeout: 45_000 }).toBeGreaterThan(1);
  const { played } = await readHook(page);
  // What Chromium's decodeAudioData made of each MP3 chunk: its PCM, no codec delay or padding
  // (±1 ms for the millisecond rounding of durationMs and the resampling to the context's rate).
  for (const chunk of played) expect(Math.abs(chunk.decodedMs - chunk.durationMs)).toBeLessThanOrEqual(1);
  // Never two at once, never a gap while one waits: a chunk placed while its predecessor still
  // sounded starts exactly where it ends; one that arrived after a silence (synthesis slower than
  // playback, as on a loaded machine) starts as it is placed, with at most the queue's 50 ms lead.
  for (let i = 1; i < played.length; i++) {
    const previous = played[i - 1]!;
    const chunk = played[i]!;
    const previousEnd = previous.startAt + previous.length;
    if (chunk.placedAt < previousEnd) expect(chunk.startAt).toBeCloseTo(previousEnd, 9);
    else {
      expect(chunk.startAt).toBeGreaterThanOrEqual(chunk.placedAt);
      expect(chunk.startAt - chunk.placedAt).toBeLessThanOrEqual(0.05 + 1e-9);
    }
  }
});

test('muting stops playback, plays nothing more and is remembered after a reload', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { name: 'Sam' });
  await openChat(page, session);
  await say(page, 'Please tell me a long story about a lighthouse keeper and his cat.');
  await expect.poll(async () => (await readHook(page)).played.length, { timeout: 20_000 }).toBeGreaterThan(0);
  const replyId = (await readHook(page)).played[0]?.replyId;

  const toggle = await soundToggle(page);
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(toggle).toHaveAttribute('title', 'Sound off (muted)');
  const { stopped } = await readHook(page);
  expect(stopped.map((s) => s.replyId)).toContain(replyId);
  await shot(page, 'speech-muted-control-bar');

  await page.reload();
  await expect(page.locator('[data-status="online"]')).toBeVisible({ timeout: 30_000 }); // first load on a busy machine
  expect(await page.evaluate(() => localStorage.getItem('soundMuted'))).toBe('1');
  const again = await soundToggle(page);
  await expect(again).toHaveAttribute('aria-pressed', 'true');

  // Muted: a new reply is written but not played.
  await say(page, 'Thanks! Now one short sentence, please.');
  await expect(lastBot(page).locator('[data-audio-state="available"]')).toBeVisible({ timeout: 20_000 });
  expect((await readHook(page)).played).toEqual([]);

  // Sound on again is remembered too.
  const on = await soundToggle(page);
  await on.click();
  await expect(on).toHaveAttribute('aria-pressed', 'false');
  expect(await page.evaluate(() => localStorage.getItem('soundMuted'))).toBeNull();
});

test('a reply whose audio file was removed shows the cleanup alert @any-width', async ({ page, request }) => {
  const session = await registerViaApi(request, { name: 'Sam' });
  await openChat(page, session);
  await say(page, 'Hello there, how are you today?');
  const bot = lastBot(page);
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible({ timeout: 20_000 });

  // Automatic cleanup (SPEC.md S-7) removes files but keeps the messages' audioUrl.
  const headers = { authorization: `Bearer ${session.token}` };
  const list = await request.get('/chat/sessions', { headers });
  expect(list.ok(), await list.text()).toBe(true);
  const { sessions } = (await list.json()) as { sessions: { sessionId: string }[] };
  const messages = await request.get('/chat/messages', {
    headers,
    params: { sessionId: sessions[0]?.sessionId ?? '', page: 1, pageSize: 20 },
  });
  expect(messages.ok(), await messages.text()).toBe(true);
  const { items } = (await messages.json()) as { items: { audioUrl: string | null }[] };
  const audioUrls = items.map((m) => m.audioUrl).filter((u): u is string => !!u);
  expect(audioUrls.length).toBeGreaterThan(0);
  for (const url of audioUrls) {
    rmSync(join(process.env.E2E_DATA_DIR ?? '', 'audio', url.split('/').pop() ?? ''), { force: true });
  }

  await page.reload();
  const gone = lastBot(page).locator('[data-audio-state="unavailable"]');
  await expect(gone).toBeVisible({ timeout: 20_000 });
  await gone.click();
  await expect(page.getByText('Audio file unavailable (removed by automatic cleanup)').first()).toBeVisible();
  await shot(page, 'speech-audio-unavailable');
});
