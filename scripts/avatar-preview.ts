/**
 * Looks at the forge's characters as the app shows them: builds them (or reads `--dir <models
 * dir>`), serves a small three.js page that poses each model with the client's own animation
 * engine (bundled with Vite) under the viewer's lights, and screenshots it with Chromium into
 * tests/e2e/artifacts/forge/:
 *
 * - `<id>.png`: full body (idle front, 3/4, side, back, rest T-pose, greeting, thinking), the
 *   head-and-shoulders portrait in every emotion, visemes and a blink, the hands at rest and in
 *   a fist, and the portrait at phone-thumbnail size;
 * - `lineup.png` (when every character is rendered): all of them side by side, full body and
 *   portrait.
 *
 *   npx tsx scripts/avatar-preview.ts [--dir <models dir>] [id…]
 *   PREVIEW_VIEWS=hand,idle npx tsx scripts/avatar-preview.ts golem   # only these views, larger
 */
import { chromium } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join, normalize } from 'node:path';
import { CHARACTERS } from '../server/src/avatars/forge/characters/index.ts';
import { forgeModel } from '../server/src/avatars/forge/forge.ts';
import { PREVIEW_PAGE } from './avatar-preview-page.ts';

/** The client's Vite, loaded from the client package (the root does not depend on it). */
interface Vite {
  build(config: object): Promise<unknown>;
}

const root = new URL('..', import.meta.url).pathname;
const clientDir = join(root, 'client');
const threeDir = join(clientDir, 'node_modules/three');
const outDir = join(root, 'tests/e2e/artifacts/forge');
mkdirSync(outDir, { recursive: true });

const args = process.argv.slice(2);
const dirAt = args.indexOf('--dir');
const modelsDir = dirAt >= 0 ? args[dirAt + 1] : undefined;
const ids = args.filter((_, i) => dirAt < 0 || (i !== dirAt && i !== dirAt + 1));
if (ids.length === 0) ids.push(...Object.keys(CHARACTERS));

const only = process.env.PREVIEW_VIEWS ? process.env.PREVIEW_VIEWS.split(',') : undefined;
const models = new Map<string, Uint8Array>();
for (const id of ids) {
  const spec = CHARACTERS[id];
  if (!spec) throw new Error(`unknown character ${id}`);
  if (modelsDir) {
    models.set(id, readFileSync(join(modelsDir, `${id}.glb`)));
    continue;
  }
  const t = Date.now();
  const m = await forgeModel(spec);
  models.set(id, m.glb);
  console.info(`${id}: ${(m.glb.byteLength / 1024).toFixed(0)} KB in ${Date.now() - t} ms`);
}

/** The client's animation engine as one ES module, three.js left to the page's import map. */
async function bundleEngine(): Promise<string> {
  const vite = (await import(createRequire(join(clientDir, 'package.json')).resolve('vite'))) as Vite;
  const out = await vite.build({
    configFile: false,
    root: clientDir,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: join(clientDir, 'src/features/avatar/engine/index.ts'),
        formats: ['es'],
        fileName: 'engine',
      },
      rollupOptions: { external: [/^three/] },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as { output: { type: string; code?: string }[] }[];
  const chunk = outputs[0]?.output.find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error('preview: the engine did not bundle');
  return chunk.code;
}
const engine = await bundleEngine();

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  try {
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PREVIEW_PAGE);
    } else if (url.pathname === '/engine.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(engine);
    } else if (url.pathname.startsWith('/three/')) {
      const path = normalize(join(threeDir, url.pathname.slice('/three/'.length)));
      if (!path.startsWith(threeDir)) throw new Error('escape');
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(path));
    } else if (url.pathname.startsWith('/models/')) {
      const data = models.get(url.pathname.slice('/models/'.length).replace(/\.glb$/, ''));
      if (!data) throw new Error('no model');
      res.writeHead(200, { 'content-type': 'model/gltf-binary' }).end(data);
    } else throw new Error('not found');
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
type PreviewWindow = {
  ready?: boolean;
  renderCharacter(url: string, id: string, only?: string[]): Promise<string>;
  renderLineup(): string;
};
const save = (name: string, dataUrl: string) => {
  const file = join(outDir, name);
  writeFileSync(file, Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'));
  console.info(`wrote ${file}`);
};
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.info('page:', m.text()));
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => (window as unknown as PreviewWindow).ready === true);
  for (const id of ids) {
    const dataUrl = await page.evaluate(
      ([url, name, views]) => (window as unknown as PreviewWindow).renderCharacter(url, name, views),
      [`/models/${id}.glb`, id, only] as const,
    );
    save(only ? `${id}-${only.join('-').replace(/[^\w-]+/g, '_')}.png` : `${id}.png`, dataUrl);
  }
  if (!only && ids.length === Object.keys(CHARACTERS).length)
    save('lineup.png', await page.evaluate(() => (window as unknown as PreviewWindow).renderLineup()));
} finally {
  await browser.close();
  server.close();
}
