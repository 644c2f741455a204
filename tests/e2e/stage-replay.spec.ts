import { expect, test, type Page } from '@playwright/test';
import { openChat, readyViewer } from './stage-steps.ts';
import { registerViaApi, shot } from './support.ts';

/**
 * Replaying a reply animates the avatar like the live reply (issue 12, SPEC.md ST-5): pressing
 * "Listen" plays the stored file through the speech queue, the avatar's mouth morphs move with it
 * (read back from the model on screen through `window.__almaAvatars.mouth()`), the stage shows it
 * speaking and wears the reply's emotion.
 */

test.describe.configure({ timeout: 150_000 });

interface Mouth {
  morph: string | null;
  weight: number;
}

const mouth = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __almaAvatars?: { mouth: () => Mouth | null } }).__almaAvatars?.mouth() ?? null,
  );

/** The mouth sampled every 50 ms for `ms`. */
async function sampleMouth(page: Page, ms: number): Promise<Mouth[]> {
  const samples: Mouth[] = [];
  for (let t = 0; t < ms; t += 50) {
    const m = await mouth(page);
    if (m) samples.push(m);
    await page.waitForTimeout(50);
  }
  return samples;
}

test('"Listen" on a reply moves the avatar’s mouth and shows the reply’s emotion while it replays', async ({
  page,
  request,
}) => {
  const session = await registerViaApi(request, { name: 'Sam' });
  await openChat(page, request, session, 'elf', { keepChat: true });
  await readyViewer(page);
  const input = page.getByLabel('Write your message');
  const open = page.getByRole('button', { name: 'Open chat' });
  if (await open.isVisible()) await open.click();
  await input.fill('I am so happy today, I got wonderful news! Tell me something joyful.');
  await input.press('Enter');
  const bot = page.getByRole('log').locator('article.bubble--bot').last();
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible({ timeout: 30_000 });
  const stage = page.getByRole('region', { name: 'Avatar' });
  // The live speech ends: the stage is quiet and the mouth closed.
  await expect(stage).not.toHaveClass(/stage--speaking/, { timeout: 60_000 });
  await page.waitForTimeout(500);
  const quiet = await sampleMouth(page, 400);
  expect(Math.max(...quiet.map((m) => m.weight))).toBeLessThan(0.1);

  // The reply's stored emotion, as the server keeps it.
  const headers = { authorization: `Bearer ${session.token}` };
  const sessions = (await (await request.get('/chat/sessions', { headers })).json()) as {
    sessions: { sessionId: string }[];
  };
  const list = (await (
    await request.get('/chat/messages', {
      headers,
      params: { sessionId: sessions.sessions[0]?.sessionId ?? '', page: 1, pageSize: 20 },
    })
  ).json()) as { items: { role: string; emotion: string | null }[] };
  const emotion = list.items.find((m) => m.role === 'assistant')?.emotion ?? 'neutral';

  await bot.getByRole('button', { name: "Play the reply's audio" }).click();
  await expect(bot.locator('[data-audio-state="playing"]')).toBeVisible();
  await expect(stage).toHaveClass(/stage--speaking/, { timeout: 15_000 });
  await expect(stage).toHaveAttribute('data-emotion', emotion);
  const speaking = await sampleMouth(page, 1500);
  await shot(page, 'stage-replay-speaking');
  // The mouth opens, and keeps changing shape or weight as the replay goes on.
  expect(Math.max(...speaking.map((m) => m.weight)), JSON.stringify(speaking)).toBeGreaterThan(0.2);
  const shapes = new Set(speaking.map((m) => `${m.morph}:${m.weight.toFixed(1)}`));
  expect(shapes.size, JSON.stringify([...shapes])).toBeGreaterThan(2);
  // It went through the app's one speech queue, as live speech does.
  const played = await page.evaluate(
    () =>
      (window as unknown as { __almaAudio?: { played: { replyId: string }[] } }).__almaAudio?.played ?? [],
  );
  expect(played.some((p) => p.replyId.startsWith('replay-'))).toBe(true);

  // Stopped: the button and the stage are quiet again.
  await bot.getByRole('button', { name: "Stop the reply's audio" }).click();
  await expect(bot.locator('[data-audio-state="available"]')).toBeVisible();
  await expect(stage).not.toHaveClass(/stage--speaking/);
});
