import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildFigure } from './fixtures/stage-models.ts';
import { readCanvas } from './pixels.ts';
import { openChat, readyViewer, setOverrides, uploadModel } from './stage-steps.ts';
import { registerViaApi } from './support.ts';

/**
 * The screenshot set of issue 12: the chat screen, chat open, with three system characters and
 * two uploaded models (a textured humanoid and a static mesh), at 1280 × 800 (desktop) and
 * 375 × 812 (phone). Each is framed and looked at before it is saved: the face (the top of the
 * painted figure) is in frame, large, lit and coloured — never a white mannequin. The set is made
 * on demand, into `STAGE_SCREENS_DIR`: five models loaded in turn are minutes of CI time that the
 * stage and upload specs already spend on the same checks one model each.
 */

test.describe.configure({ timeout: 600_000 });

const outDir = process.env.STAGE_SCREENS_DIR ?? '';

test('the chat screen with three system characters and two uploads: faces framed, coloured, saved', async ({
  page,
  request,
}) => {
  test.skip(!outDir, 'made on demand: STAGE_SCREENS_DIR=<dir>');
  mkdirSync(outDir, { recursive: true });
  const project = test.info().project.name;
  const session = await registerViaApi(request, { name: 'Sam' });
  const textured = await uploadModel(
    request,
    session,
    await buildFigure({ texture: 'png' }),
    'Textured Tess',
  );
  const statue = await uploadModel(
    request,
    session,
    await buildFigure({ skinned: false, texture: 'png' }),
    'Static Stan',
  );
  const avatars: [string, string, number][] = [
    // id, file name, the least saturation of the face expected (skin and hair are coloured).
    ['elf', 'elf', 20],
    ['witch', 'witch', 20],
    // The top of her figure reads dark and hardly saturated (median rgb 46, 41, 55 measured).
    ['vampireF', 'vampire', 5],
    [textured, 'upload-textured', 60],
    [statue, 'upload-static', 60],
  ];
  for (const [id, name, saturation] of avatars) {
    await openChat(page, request, session, id, { keepChat: true });
    const viewer = await readyViewer(page);
    await expect(viewer).toHaveAttribute('data-avatar', id);
    await setOverrides(page, { still: true, emotion: 'happy' });
    await page.waitForTimeout(1200);
    // Saved first, then judged (softly): one run gives the whole set and every finding.
    await page.screenshot({ path: join(outDir, `${project}-${name}.png`) });
    const pixels = await readCanvas(page, viewer.locator('canvas'), 0.2);
    const where = `${name}: ${JSON.stringify({ box: pixels.box, top: pixels.top, w: pixels.width, h: pixels.height })}`;
    expect(pixels.box, where).not.toBeNull();
    const box = pixels.box!;
    // Framed: the head's top inside the frame, near the top, the figure centred and large.
    expect.soft(box.y, where).toBeGreaterThan(2);
    expect.soft(box.y, where).toBeLessThan(pixels.height * 0.2);
    expect.soft(Math.abs(pixels.centreX - 0.5), where).toBeLessThan(0.12);
    expect.soft(box.width / pixels.width, where).toBeGreaterThan(0.25);
    // Lit and coloured, not white.
    expect.soft(pixels.top.count, where).toBeGreaterThan(200);
    expect.soft(pixels.top.saturation, where).toBeGreaterThan(saturation);
    expect.soft(Math.min(pixels.top.r, pixels.top.g, pixels.top.b), where).toBeLessThan(230);
  }
});
