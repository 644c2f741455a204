import { expect, test, type Locator, type Page } from '@playwright/test';
import { readCanvas } from './pixels.ts';
import { openChat, readyViewer, setOverrides } from './stage-steps.ts';
import { registerViaApi, shot } from './support.ts';

/**
 * The phone's chat screen (issue 12, SPEC.md ST-4): the chat is a half-height sheet over the
 * stage, so the avatar's face stays in view while chatting; the sheet grows to full height and
 * back by keyboard or by its handle; the control bar fits a 375 px screen. Looked at as a person
 * would: where the face is painted on the canvas, and what covers that point of the screen.
 */

test.describe.configure({ timeout: 150_000 });

/** Inside the viewport, whole. */
async function expectInViewport(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  const where = `${what}: ${JSON.stringify(box)} in ${JSON.stringify(viewport)}`;
  expect(box!.x, where).toBeGreaterThanOrEqual(0);
  expect(box!.y, where).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, where).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height, where).toBeLessThanOrEqual(viewport.height + 0.5);
}

/**
 * The face: the top of the painted figure on the stage's canvas, in page coordinates. It must be
 * painted (not white, not empty), above the sheet, and the topmost element at its centre must be
 * the canvas itself — no caption, control or sheet over it.
 */
async function expectFaceVisible(page: Page, viewer: Locator) {
  const canvas = viewer.locator('canvas');
  const pixels = await readCanvas(page, canvas, 0.2);
  expect(pixels.box, 'the figure is painted').not.toBeNull();
  const box = pixels.box!;
  // Portrait framing: a head, large enough to watch it talk.
  expect(box.width, JSON.stringify(box)).toBeGreaterThan(90);
  // Lit and coloured, not a white mannequin: the elf's skin and hair are saturated.
  expect(pixels.top.saturation, JSON.stringify(pixels.top)).toBeGreaterThan(20);
  expect(pixels.top.r + pixels.top.g + pixels.top.b).toBeLessThan(3 * 245);
  const rect = (await canvas.boundingBox())!;
  const scale = rect.width / pixels.width;
  const face = {
    x: rect.x + (box.x + box.width / 2) * scale,
    y: rect.y + (box.y + box.height * 0.15) * scale,
  };
  const sheet = (await page.locator('main.chat-panel').boundingBox())!;
  expect(face.y, `face ${JSON.stringify(face)} above the sheet at ${sheet.y}`).toBeLessThan(sheet.y - 10);
  const topbar = (await page.locator('.chat-topbar').boundingBox())!;
  expect(face.y).toBeGreaterThan(topbar.y + topbar.height);
  const onTop = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.tagName.toLowerCase() ?? null,
    face,
  );
  expect(onTop, `what covers the face at ${JSON.stringify(face)}`).toBe('canvas');
  return { face, sheet };
}

for (const height of [667, 812]) {
  test.describe(`at 375 × ${height}`, () => {
    test.use({ viewport: { width: 375, height } });

    test('the chat is a half-height sheet below the avatar’s face; it grows to full and back by keyboard (SPEC.md ST-4)', async ({
      page,
      request,
    }) => {
      test.skip(test.info().project.name !== 'phone', 'the sheet exists up to 1023 px (the phone project)');
      const session = await registerViaApi(request);
      await openChat(page, request, session, 'elf', { keepChat: true });
      const panel = page.locator('main.chat-panel');
      await expect(panel).toHaveAttribute('data-overlay', 'open');
      await expect(panel).toHaveAttribute('data-sheet', 'half');
      const viewer = await readyViewer(page);
      await setOverrides(page, { still: true });
      await page.waitForTimeout(800);
      await expectFaceVisible(page, viewer);
      await shot(page, `stage-phone-sheet-${height}`);

      // The sheet's controls are on screen: its handle, size, close, the input and send.
      const input = page.getByLabel('Write your message');
      const size = page.getByRole('button', { name: 'Expand the chat' });
      for (const [what, locator] of [
        ['handle', page.getByTestId('chat-drag-handle')],
        ['size', size],
        ['close', page.getByRole('button', { name: 'Close chat' })],
        ['input', input],
        ['send', page.getByRole('button', { name: 'Send', exact: true })],
      ] as const) {
        await expect(locator, what).toBeVisible();
        await expectInViewport(page, locator, what);
      }
      // The control bar floats above the sheet, whole, and leaves the face alone.
      const controls = page.getByRole('toolbar', { name: 'Avatar controls' });
      await expect(controls).toBeVisible();
      await expectInViewport(page, controls, 'control bar');
      const sheetTop = (await panel.boundingBox())!.y;
      expect((await controls.boundingBox())!.y + (await controls.boundingBox())!.height).toBeLessThanOrEqual(
        sheetTop,
      );

      // By keyboard: full height (the control bar is hidden under it), then back to half.
      await size.focus();
      await page.keyboard.press('Enter');
      await expect(panel).toHaveAttribute('data-sheet', 'full');
      await expect(controls).toBeHidden();
      const shrink = page.getByRole('button', { name: 'Show the avatar above the chat' });
      await expect(shrink).toBeFocused();
      await expect.poll(async () => (await panel.boundingBox())?.y).toBeLessThan(sheetTop - 100);
      await expectInViewport(page, input, 'input in the full sheet');
      await page.keyboard.press('Enter');
      await expect(panel).toHaveAttribute('data-sheet', 'half');
      await expect(controls).toBeVisible();
      await expect.poll(async () => (await panel.boundingBox())?.y).toBe(sheetTop);

      // Closed (Escape), the stage's control bar fits the screen, "Open chat" whole.
      await input.focus();
      await page.keyboard.press('Escape');
      await expect(panel).toHaveAttribute('data-overlay', 'closed');
      const open = page.getByRole('button', { name: 'Open chat' });
      await expect(open).toBeFocused();
      await expectInViewport(page, controls, 'control bar, chat closed');
      await expectInViewport(page, open, 'open chat');
      await shot(page, `stage-phone-closed-${height}`);
      // Reopened, the sheet is at half again.
      await page.keyboard.press('Enter');
      await expect(panel).toHaveAttribute('data-sheet', 'half');
    });
  });
}

test('the sheet snaps by its handle: up to full, down to half, down again closes; labels in Spanish', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'phone', 'the sheet exists up to 1023 px (the phone project)');
  const session = await registerViaApi(request, { language: 'es' });
  await openChat(page, request, session, 'elf', { keepChat: true, language: 'es' });
  const panel = page.locator('main.chat-panel');
  const handle = page.getByTestId('chat-drag-handle');
  await expect(panel).toHaveAttribute('data-sheet', 'half');
  await expect(page.getByRole('button', { name: 'Ampliar el chat' })).toBeVisible();

  // A real touch drag through the DevTools protocol (pointer events of type touch).
  const cdp = await page.context().newCDPSession(page);
  async function touchDrag(dy: number) {
    // From the resting place (a snap animates for 0.25 s).
    let last = -1;
    await expect
      .poll(async () => {
        const y = (await handle.boundingBox())?.y ?? -1;
        const still = y === last;
        last = y;
        return still;
      })
      .toBe(true);
    const box = (await handle.boundingBox())!;
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

  await touchDrag(-40);
  await expect(panel).toHaveAttribute('data-sheet', 'half');
  await touchDrag(-100);
  await expect(panel).toHaveAttribute('data-sheet', 'full');
  await expect(page.getByRole('button', { name: 'Mostrar el avatar sobre el chat' })).toBeVisible();
  await touchDrag(170);
  await expect(panel).toHaveAttribute('data-sheet', 'half');
  await expect(panel).toHaveAttribute('data-overlay', 'open');
  await touchDrag(170);
  await expect(panel).toHaveAttribute('data-overlay', 'closed');
  await expect(page.getByRole('button', { name: 'Abrir chat' })).toBeFocused();
});
