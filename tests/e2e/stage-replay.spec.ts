import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openChat, readyViewer } from './stage-steps.ts';
import { registerViaApi, shot } from './support.ts';

/**
 * Replaying a reply animates the avatar like the live reply (issue 12, SPEC.md ST-5): pressing
 * "Listen" plays the stored file through the speech queue, the avatar's mouth morphs move with it
 * (read back from the model on screen through `window.__almaAvatars.mouth()`), the stage shows it
 * speaking and wears that reply's emotion, not the conversation's latest. Sound is muted, so no
 * live speech moves the mouth: what moves it is the replay (which "Listen" plays all the same).
 */

// Two replies and a replay in a real browser: minutes on a loaded 2-core machine.
test.describe.configure({ timeout: 300_000 });

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
  for (const end = Date.now() + ms; Date.now() < end;) {
    const m = await mouth(page);
    if (m) samples.push(m);
    await page.waitForTimeout(50);
  }
  return samples;
}

/** The mouth as drawn, and the stage's state (speaking, the emotion it wears) at that moment. */
interface Sample extends Mouth {
  speaking: boolean;
  emotion: string | undefined;
}

type Sampler = Window & { __stageSamples?: Sample[]; __stageTimer?: number };

/**
 * Samples the mouth and the stage in the page itself, every 40 ms until `stopSampling`: on a
 * loaded machine a round trip from the test can take longer than a short reply sounds.
 */
const startSampling = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Sampler & { __almaAvatars?: { mouth: () => Mouth | null } };
    const stage = document.querySelector<HTMLElement>('section.stage');
    w.__stageSamples = [];
    w.__stageTimer = window.setInterval(() => {
      const m = w.__almaAvatars?.mouth();
      if (!m || !stage) return;
      const speaking = stage.classList.contains('stage--speaking');
      w.__stageSamples?.push({ ...m, speaking, emotion: stage.dataset.emotion });
    }, 40);
  });

const stopSampling = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Sampler;
    window.clearInterval(w.__stageTimer);
    return w.__stageSamples ?? [];
  });

test('"Listen" on a reply moves the avatar’s mouth and wears that reply’s emotion until it ends or is stopped (SPEC.md ST-5)', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'desktop', 'the same queue and viewer on a phone');
  const session = await registerViaApi(request, { name: 'Sam' });
  await page.addInitScript(() => localStorage.setItem('soundMuted', '1'));
  await openChat(page, request, session, 'elf', { keepChat: true });
  await readyViewer(page);
  const log = page.getByRole('log');
  const input = page.getByLabel('Write your message');
  const stage = page.getByRole('region', { name: 'Avatar', exact: true });
  // A happy reply, then a neutral one: the conversation's emotion is now the second's.
  for (const [n, text] of [
    [1, 'I passed my exam! I am so happy and proud, tell me a long happy story to celebrate.'],
    [2, 'Please tell me a long story about a lighthouse keeper and his cat.'],
  ] as const) {
    await input.fill(text);
    await input.press('Enter');
    // The file is stored once the whole reply is synthesised: long on a loaded 2-core machine.
    await expect(
      log
        .locator('article.bubble--bot')
        .nth(n - 1)
        .locator('[data-audio-state="available"]'),
    ).toBeVisible({ timeout: 90_000 });
  }
  const happy = log.locator('article.bubble--bot').first();
  const stored = await storedEmotions(request, session.token);
  expect(stored).toEqual(['happy', expect.not.stringMatching(/^happy$/)]);
  const latest = stored[1] ?? 'neutral';
  await expect(stage).toHaveAttribute('data-emotion', latest);
  await expect(stage).not.toHaveClass(/stage--speaking/);
  const quiet = await sampleMouth(page, 400);
  expect(Math.max(...quiet.map((m) => m.weight))).toBeLessThan(0.1);

  // Played and stopped at once: the button and the stage are quiet again, on the latest emotion.
  await happy.getByRole('button', { name: "Play the reply's audio" }).click();
  await expect(stage).toHaveAttribute('data-emotion', 'happy');
  await happy.getByRole('button', { name: "Stop the reply's audio" }).click();
  await expect(happy.locator('[data-audio-state="available"]')).toBeVisible();
  await expect(stage).not.toHaveClass(/stage--speaking/);
  await expect(stage).toHaveAttribute('data-emotion', latest);

  // Played to its end: the avatar speaks it with that reply's emotion, the mouth moving.
  await startSampling(page);
  await happy.getByRole('button', { name: "Play the reply's audio" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as Sampler).__stageSamples?.some((s) => s.speaking)), {
      timeout: 15_000,
    })
    .toBe(true);
  // Ended by itself: the button says "Play" again, the stage is quiet on the latest emotion.
  await expect(happy.locator('[data-audio-state="available"]')).toBeVisible({ timeout: 30_000 });
  await expect(stage).not.toHaveClass(/stage--speaking/);
  await expect(stage).toHaveAttribute('data-emotion', latest);
  const samples = await stopSampling(page);
  // The stage spoke, wearing that reply's emotion all along (read in the page, not after a round
  // trip that may outlast the replay).
  const speaking = samples.filter((s) => s.speaking);
  expect(speaking.length, JSON.stringify(samples.slice(0, 20))).toBeGreaterThan(5);
  expect(new Set(speaking.map((s) => s.emotion))).toEqual(new Set(['happy']));
  // The mouth opened, and kept changing shape or weight as the replay went on.
  expect(Math.max(...speaking.map((m) => m.weight)), JSON.stringify(speaking)).toBeGreaterThan(0.2);
  const shapes = new Set(speaking.map((m) => `${m.morph}:${m.weight.toFixed(1)}`));
  expect(shapes.size, JSON.stringify([...shapes])).toBeGreaterThan(2);
  // It went through the app's one speech queue, as live speech does.
  const played = await page.evaluate(
    () =>
      (window as unknown as { __almaAudio?: { played: { replyId: string }[] } }).__almaAudio?.played ?? [],
  );
  expect(played.length).toBeGreaterThan(0);
  for (const p of played) expect(p.replyId).toMatch(/^replay-/);
  // And the mouth closes again.
  await expect.poll(async () => (await mouth(page))?.weight ?? 1).toBeLessThan(0.1);
  await shot(page, 'stage-replay-ended');
});

/** The emotions of the session's replies as the server keeps them, oldest first. */
async function storedEmotions(request: APIRequestContext, token: string): Promise<(string | null)[]> {
  const headers = { authorization: `Bearer ${token}` };
  const sessions = (await (await request.get('/chat/sessions', { headers })).json()) as {
    sessions: { sessionId: string }[];
  };
  const list = (await (
    await request.get('/chat/messages', {
      headers,
      params: { sessionId: sessions.sessions[0]?.sessionId ?? '', page: 1, pageSize: 20 },
    })
  ).json()) as { items: { role: string; emotion: string | null; createdAt: string }[] };
  return list.items
    .filter((m) => m.role === 'assistant')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((m) => m.emotion);
}
