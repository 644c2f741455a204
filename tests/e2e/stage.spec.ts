import { expect, test, type APIRequestContext, type ConsoleMessage, type Page } from '@playwright/test';
import { buildFigure, type FigureOptions } from './fixtures/stage-models.ts';
import { readCanvas } from './pixels.ts';
import { openChat, readyViewer, setOverrides, uploadModel } from './stage-steps.ts';
import { registerViaApi, shot, type ApiSession } from './support.ts';

/**
 * The stage (issue 12): every model the server accepts renders as its author made it — textures
 * (PNG through blob: URLs, KTX2/Basis with the transcoder from our own origin), meshopt and Draco
 * geometry — framed from its bounds whatever its size, origin or facing. Models are built in the
 * test with glTF-Transform (fixtures/stage-models.ts), uploaded through the real pipeline, chosen,
 * and looked at: pixel colours and coverage of the rendered canvas, and the console.
 */

// Uploads are processed by a worker thread and SwiftShader renders on the CPU: slow on 2 cores.
test.describe.configure({ timeout: 150_000 });

/** Console errors and failed requests of the page, collected from the start. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Opens the chat on `avatar` and waits for its model on stage, held in a still pose. */
async function showOnStage(page: Page, request: APIRequestContext, session: ApiSession, avatar: string) {
  await openChat(page, request, session, avatar);
  const viewer = await readyViewer(page);
  await expect(viewer).toHaveAttribute('data-avatar', avatar);
  await setOverrides(page, { still: true });
  await page.waitForTimeout(600);
  return viewer;
}

async function uploadAndShow(page: Page, request: APIRequestContext, options: FigureOptions, name: string) {
  const session = await registerViaApi(request);
  const id = await uploadModel(request, session, await buildFigure(options), name);
  return { session, id, viewer: await showOnStage(page, request, session, id) };
}

test('a textured upload renders its colours, not white, with no console errors', async ({
  page,
  request,
}) => {
  const problems = watchConsole(page);
  const { viewer } = await uploadAndShow(page, request, { texture: 'png' }, 'Textured Tess');
  // The caption names the custom avatar by its own name, not the default's.
  await expect(page.locator('.stage__name')).toHaveText('Textured Tess');
  await expect(viewer.getByRole('img', { name: '3D avatar: Textured Tess' })).toBeVisible();
  const pixels = await readCanvas(page, viewer.locator('canvas'));
  expect(pixels.painted).toBeGreaterThan(0.02);
  // The face (top of the figure) shows the texture's warm colour: red well above blue, saturated.
  // An untextured (white) material under the stage's lights is grey-white: saturation near 0.
  expect(pixels.top.count).toBeGreaterThan(50);
  expect(pixels.top.saturation).toBeGreaterThan(60);
  expect(pixels.top.r - pixels.top.b).toBeGreaterThan(60);
  await shot(page, 'stage-textured-upload');
  expect(problems).toEqual([]);
});

test('a KTX2 (Basis) textured upload renders its colours, transcoded by our own server’s transcoder', async ({
  page,
  request,
}) => {
  // Three.js's Basis transcoder is an Emscripten/embind build that compiles its bindings with
  // `new Function`: a blob: worker inherits the page's policy (no 'unsafe-eval') and never starts.
  // Ours starts from /decoders/basis-worker.js, served with a policy of its own (SPEC ST-1).
  const problems = watchConsole(page);
  const transcoder: string[] = [];
  page.on('request', (r) => {
    if (/basis_transcoder/.test(r.url())) transcoder.push(r.url());
  });
  const { viewer } = await uploadAndShow(page, request, { texture: 'ktx2' }, 'ktx2');
  const pixels = await readCanvas(page, viewer.locator('canvas'));
  expect(pixels.top.count).toBeGreaterThan(50);
  expect(pixels.top.saturation).toBeGreaterThan(60);
  expect(pixels.top.r - pixels.top.b).toBeGreaterThan(60);
  // The transcoder (script and wasm) came from this origin.
  expect(transcoder.length).toBeGreaterThanOrEqual(2);
  for (const url of transcoder) expect(new URL(url).origin).toBe(new URL(page.url()).origin);
  await shot(page, 'stage-ktx2-upload');
  expect(problems).toEqual([]);
});

test('a model whose decoder never answers shows the default avatar and says why, never loading for ever', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'desktop', 'the same loader on a phone');
  test.setTimeout(180_000);
  // A transcoder worker that starts and never answers: what a refused or broken decoder does.
  await page.route('**/decoders/basis-worker.js', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: '/* silent */' }),
  );
  const session = await registerViaApi(request);
  const bytes = await buildFigure({ texture: 'ktx2' });
  const id = await uploadModel(request, session, bytes, 'Silent Sam');
  await openChat(page, request, session, id);
  const viewer = page.getByTestId('avatar-viewer');
  await expect(viewer).toHaveAttribute('data-state', 'loading');
  // The parse timeout (30 s), then the default avatar on stage and the reason in words.
  await expect(
    page.locator('.toast').filter({
      hasText: 'The avatar took too long to load. Showing the default avatar instead.',
    }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(viewer).toHaveAttribute('data-avatar', 'default');
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
});

for (const compression of ['draco', 'meshopt'] as const) {
  test(`a ${compression}-compressed model renders as its author made it (the client's decoder)`, async ({
    page,
    request,
  }) => {
    test.skip(test.info().project.name !== 'desktop', 'the decoders are the same on a phone');
    const problems = watchConsole(page);
    // Processing re-encodes uploads with meshopt, so the client's Draco path is reached by
    // serving the authored file as a system model: the bytes reach GLTFLoader untouched.
    const bytes = Buffer.from(await buildFigure({ compression }));
    await page.route('**/models/elf.glb', (route) =>
      route.fulfill({ status: 200, contentType: 'model/gltf-binary', body: bytes }),
    );
    const session = await registerViaApi(request);
    const viewer = await showOnStage(page, request, session, 'elf');
    // SwiftShader draws on the CPU: the viewer knows, and renders at its capped rate.
    await expect(viewer).toHaveAttribute('data-renderer', 'software');
    const pixels = await readCanvas(page, viewer.locator('canvas'));
    expect(pixels.painted).toBeGreaterThan(0.02);
    expect(pixels.top.r - pixels.top.b).toBeGreaterThan(60);
    expect(problems).toEqual([]);
  });
}

test('any model is framed from its bounds: tiny, huge and off-centre, facing away, a static mesh that sways (SPEC ST-2)', async ({
  page,
  request,
}) => {
  test.skip(
    test.info().project.name !== 'desktop',
    'framing is the same code at any width (framing.test.ts); a phone canvas screenshot reads as painted edge to edge, so pixel bounds are read on the desktop',
  );
  test.setTimeout(400_000);
  const models: [string, FigureOptions][] = [
    ['Tiny Tim', { height: 0.2, texture: null }],
    ['Huge Hugo', { height: 200, origin: 'centre', facing: -1, texture: null }],
    ['Static Stan', { skinned: false, origin: [3, -1, 2], texture: null }],
  ];
  // Full body: the whole figure is what is framed here (the portrait is the next test's).
  await page.addInitScript(() => localStorage.setItem('alma.stageFraming', 'full'));
  for (const [name, options] of models) {
    // One account per model: a free plan keeps two custom avatars.
    const session = await registerViaApi(request);
    const id = await uploadModel(request, session, await buildFigure(options), name);
    const viewer = await showOnStage(page, request, session, id);
    await expect(page.getByTestId('stage-framing')).toHaveAttribute('data-framing', 'full');
    const pixels = await readCanvas(page, viewer.locator('canvas'));
    // The whole figure stands in frame: tall, inside the canvas, horizontally centred.
    expect(pixels.box, name).not.toBeNull();
    const box = pixels.box!;
    expect(box.height / pixels.height, name).toBeGreaterThan(0.55);
    const where = `${name}: ${JSON.stringify({ box, width: pixels.width, height: pixels.height })}`;
    expect(box.y, where).toBeGreaterThan(2);
    expect(box.height / pixels.height, where).toBeLessThan(0.97);
    expect(Math.abs(pixels.centreX - 0.5), name).toBeLessThan(0.12);
    await shot(page, `stage-framed-${name.split(' ')[1]!.toLowerCase()}`);
  }
  // The static mesh cannot breathe: it sways as a whole (the frame changes over time).
  await setOverrides(page, { still: false });
  const canvas = page.getByTestId('avatar-viewer').locator('canvas');
  const before = await readCanvas(page, canvas);
  await page.waitForTimeout(1500);
  const after = await readCanvas(page, canvas);
  expect(Math.abs(before.centreX - after.centreX) + Math.abs(before.painted - after.painted)).toBeGreaterThan(
    0,
  );
});

test('the stage frames head and shoulders by default; full body is a toggle, remembered (SPEC ST-3)', async ({
  page,
  request,
}) => {
  // On a phone the canvas reads as painted edge to edge (the stage's backdrop shows through the
  // element screenshot): the pixel reading here is the desktop's; the phone's layout is issue 12's
  // phone item.
  test.skip(test.info().project.name !== 'desktop', 'pixel framing read on the desktop layout');
  const session = await registerViaApi(request);
  await openChat(page, request, session, 'elf');
  const viewer = await readyViewer(page);
  await setOverrides(page, { still: true });
  const toggle = page.getByTestId('stage-framing');
  await expect(toggle).toHaveAttribute('data-framing', 'portrait');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await page.waitForTimeout(800);
  const portrait = await readCanvas(page, viewer.locator('canvas'));
  await shot(page, 'stage-portrait');
  // Head and shoulders: the figure runs off the bottom of the frame, its head near the top.
  expect(portrait.box).not.toBeNull();
  expect(portrait.box!.y + portrait.box!.height).toBeGreaterThanOrEqual(portrait.height - 2);
  // …and the top of the head is in frame, not cut.
  expect(portrait.box!.y, JSON.stringify(portrait.box)).toBeGreaterThan(2);
  expect(portrait.box!.y).toBeLessThan(portrait.height * 0.15);
  // By keyboard: full body, the whole figure in frame.
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('data-framing', 'full');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(2000);
  const full = await readCanvas(page, viewer.locator('canvas'));
  await shot(page, 'stage-full-body');
  expect(full.box!.y).toBeGreaterThan(2);
  expect(full.box!.height / full.height, JSON.stringify(full)).toBeLessThan(0.97);
  // The figure is smaller in full body: the head is much wider in the portrait.
  expect(portrait.painted).toBeGreaterThan(full.painted * 1.5);
  // Remembered after a reload.
  await page.reload();
  await readyViewer(page);
  await expect(page.getByTestId('stage-framing')).toHaveAttribute('data-framing', 'full');
});

test('an upload with skin weights that don’t add up to 1 is accepted, repaired, and renders (SPEC.md AU-12)', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'desktop', 'the same pipeline and viewer on a phone');
  const problems = watchConsole(page);
  const session = await registerViaApi(request);
  // Every vertex weighs 0.6 on its bone: the validator's ACCESSOR_WEIGHTS_NON_NORMALIZED.
  const id = await uploadModel(request, session, await buildFigure({ weightSum: 0.6 }), 'Wobbly Will');
  const status = await request.get(`/api/upload/avatar/${id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const { avatar } = (await status.json()) as {
    avatar: { compatibility: { repaired?: { code: string; count: number }[] } };
  };
  const repaired = avatar.compatibility.repaired ?? [];
  expect(repaired.map((r) => r.code)).toEqual(['ACCESSOR_WEIGHTS_NON_NORMALIZED']);
  expect(repaired[0]?.count).toBeGreaterThan(0);
  await page.addInitScript(() => localStorage.setItem('alma.stageFraming', 'full'));
  const viewer = await showOnStage(page, request, session, id);
  const pixels = await readCanvas(page, viewer.locator('canvas'));
  // Repaired weights skin the figure whole: standing, framed, in its texture's colours. Weights of
  // 0.6 left as they came would pull every vertex 40 % of the way to the skeleton's origin.
  expect(pixels.box).not.toBeNull();
  expect(pixels.box!.height / pixels.height).toBeGreaterThan(0.55);
  expect(pixels.top.r - pixels.top.b).toBeGreaterThan(60);
  await shot(page, 'stage-repaired-weights');
  expect(problems).toEqual([]);
});

test('a static mesh is accepted and its report says it cannot speak or gesture, on the server and in the upload panel (SPEC.md AU-14)', async ({
  page,
  request,
}) => {
  test.skip(test.info().project.name !== 'desktop', 'the same pipeline and panel on a phone');
  const session = await registerViaApi(request);
  await openChat(page, request, session);
  const toolbar = page.getByRole('toolbar', { name: 'Avatar controls' });
  await toolbar.getByRole('button', { name: 'Change avatar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose your avatar' });
  const panel = dialog.getByRole('region', { name: 'Upload your own avatar (.glb)' });
  await panel.getByLabel('Name (optional)').fill('Statue');
  await panel.getByTestId('avatar-upload-input').setInputFiles({
    name: 'statue.glb',
    mimeType: 'model/gltf-binary',
    buffer: Buffer.from(await buildFigure({ skinned: false })),
  });
  await expect(panel.getByText('Statue is ready!')).toBeVisible({ timeout: 90_000 });
  const limits = panel.getByRole('list', { name: 'What this model cannot do' });
  await expect(limits.getByRole('listitem')).toHaveText([
    'A static model (no skeleton, no face shapes): it cannot speak or gesture; on the stage it sways gently.',
  ]);
  // Then the new avatar joins the list above the panel, chosen, and its card with the same report
  // is brought into sight — not left above the fold while the panel's copy is pushed below it.
  const mine = dialog.getByRole('radiogroup', { name: 'Your avatars' });
  await expect(mine.getByRole('radio', { name: /Statue/ })).toBeChecked();
  await expect(mine.getByRole('list', { name: 'What this model cannot do' })).toBeInViewport({ ratio: 1 });
  await shot(page, 'stage-static-mesh-report');
  // The server's report says the same, in codes the client words.
  const list = await request.get(`/api/upload/avatars/${session.user.id}`, {
    headers: { authorization: `Bearer ${session.token}` },
  });
  const body = (await list.json()) as {
    avatars: { name: string; compatibility: { warnings: string[] } | null }[];
  };
  const statue = body.avatars.find((a) => a.name === 'Statue');
  expect(statue?.compatibility?.warnings).toEqual(['static_mesh', 'no_skeleton', 'no_lip_sync']);
});
