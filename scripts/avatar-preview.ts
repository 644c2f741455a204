/**
 * Looks at the forge's characters: builds them (or reads `--dir <models dir>`), serves a small
 * three.js page and screenshots each character with Playwright's Chromium — full body arms down,
 * rest T-pose and face close-ups (neutral, visemes, smile, blink, surprise, anger, sad) — into
 * tests/e2e/artifacts/forge/<id>.png.
 *
 *   npx tsx scripts/avatar-preview.ts [id…]
 */
import { chromium } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { CHARACTERS } from '../server/src/avatars/forge/characters/index.ts';
import { forgeModel } from '../server/src/avatars/forge/forge.ts';

const root = new URL('..', import.meta.url).pathname;
const threeDir = join(root, 'server/node_modules/three');
const outDir = join(root, 'tests/e2e/artifacts/forge');
mkdirSync(outDir, { recursive: true });

const ids = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CHARACTERS);
const models = new Map<string, Uint8Array>();
for (const id of ids) {
  const spec = CHARACTERS[id];
  if (!spec) throw new Error(`unknown character ${id}`);
  const t = Date.now();
  const m = await forgeModel(spec);
  models.set(id, m.glb);
  console.info(`${id}: ${(m.glb.byteLength / 1024).toFixed(0)} KB in ${Date.now() - t} ms`);
}

const PAGE = `<!doctype html><html><body style="margin:0;background:#2a2d38">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
const W = 300, H = 380;
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setSize(W, H);
const scene = new THREE.Scene();
scene.background = new THREE.Color('#2a2d38');
scene.add(new THREE.HemisphereLight('#ffffff', '#555566', 1.6));
const key = new THREE.DirectionalLight('#ffffff', 2.2); key.position.set(1.5, 3, 3); scene.add(key);
const fill = new THREE.DirectionalLight('#cfd8ff', 0.8); fill.position.set(-2, 1, 2); scene.add(fill);
const camera = new THREE.PerspectiveCamera(30, W / H, 0.01, 50);
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
const VIEWS = [
  ['arms down (full)', 'body', { arms: 70 }],
  ['rest T-pose', 'body', {}],
  ['neutral', 'face', {}],
  ['viseme_aa', 'face', { viseme_aa: 1 }],
  ['smile', 'face', { mouthSmileLeft: 1, mouthSmileRight: 1, eyeSquintLeft: 0.4, eyeSquintRight: 0.4 }],
  ['viseme_O', 'face', { viseme_O: 1 }],
  ['surprise', 'face', { eyeWideLeft: 1, eyeWideRight: 1, browInnerUp: 1, browOuterUpLeft: 1, browOuterUpRight: 1, jawOpen: 0.5 }],
  ['anger', 'face', { browDownLeft: 1, browDownRight: 1, mouthFrownLeft: 1, mouthFrownRight: 1, eyeSquintLeft: 0.5, eyeSquintRight: 0.5 }],
  ['blink L + viseme_FF', 'face', { eyeBlinkLeft: 1, viseme_FF: 1 }],
  ['sad', 'face', { browInnerUp: 1, mouthFrownLeft: 0.8, mouthFrownRight: 0.8 }],
  ['side', 'side', { arms: 70 }],
  ['back', 'back', { arms: 70 }],
  ['upper body 3/4, arms down', 'upper', { arms: 70 }],
  ['hand', 'hand', {}],
  ['gaze left + smile', 'face', { gaze: 0.3, mouthSmileLeft: 1, mouthSmileRight: 1 }],
  ['gaze right', 'face', { gaze: -0.3 }],
];
window.renderCharacter = async (url, only) => {
  const gltf = await loader.loadAsync(url);
  const model = gltf.scene;
  scene.add(model);
  const bones = {}; const faces = [];
  model.traverse((o) => { if (o.isBone) bones[o.name] = o; if (o.morphTargetDictionary) faces.push(o); });
  const views = only ? VIEWS.filter(([label]) => label.startsWith(only)) : VIEWS;
  const S = only ? 2.5 : 1;
  renderer.setSize(W * S, H * S);
  const out = document.createElement('canvas');
  const cols = Math.min(7, views.length), rows = Math.ceil(views.length / cols);
  out.width = W * S * cols; out.height = H * S * rows;
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#2a2d38';
  ctx.fillRect(0, 0, out.width, out.height);
  for (const [i, [label, kind, pose]] of views.entries()) {
    const a = ((pose.arms ?? (kind === 'face' ? 70 : 0)) * Math.PI) / 180;
    bones.LeftArm.rotation.set(0, 0, -a);
    bones.RightArm.rotation.set(0, 0, a);
    bones.LeftForeArm.rotation.set(0, a ? -0.25 : 0, 0);
    bones.RightForeArm.rotation.set(0, a ? 0.25 : 0, 0);
    bones.LeftEye.rotation.set(0, pose.gaze ?? 0, 0);
    bones.RightEye.rotation.set(0, pose.gaze ?? 0, 0);
    for (const f of faces) {
      f.morphTargetInfluences.fill(0);
      for (const [k, v] of Object.entries(pose)) { const j = f.morphTargetDictionary[k]; if (j !== undefined) f.morphTargetInfluences[j] = v; }
    }
    model.updateMatrixWorld(true);
    const head = new THREE.Vector3(); bones.Head.getWorldPosition(head);
    if (kind === 'face') { camera.position.set(0, head.y + 0.16, 1.0); camera.lookAt(0, head.y + 0.13, 0); }
    else if (kind === 'side') { camera.position.set(3.6, 0.95, 0.9); camera.lookAt(0, 0.88, 0); }
    else if (kind === 'back') { camera.position.set(0, 0.95, -3.7); camera.lookAt(0, 0.88, 0); }
    else if (kind === 'upper') { camera.position.set(0.9, 1.3, 1.1); camera.lookAt(0.05, 1.1, 0); }
    else if (kind === 'hand') { const h = new THREE.Vector3(); bones.LeftHand.getWorldPosition(h); camera.position.set(h.x + 0.05, h.y + 0.25, h.z + 0.3); camera.lookAt(h.x + 0.05, h.y, h.z); }
    else { camera.position.set(0, 0.95, 3.7); camera.lookAt(0, 0.88, 0); }
    renderer.render(scene, camera);
    ctx.drawImage(renderer.domElement, (i % cols) * W * S, Math.floor(i / cols) * H * S);
    ctx.fillStyle = 'rgba(0,0,0,0.6)'; ctx.fillRect((i % cols) * W + 6, Math.floor(i / cols) * H + 6, label.length * 7 + 12, 20);
    ctx.fillStyle = '#fff'; ctx.font = '12px sans-serif'; ctx.fillText(label, (i % cols) * W + 12, Math.floor(i / cols) * H + 20);
  }
  scene.remove(model);
  return out.toDataURL('image/png');
};
window.ready = true;
</script></body></html>`;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  try {
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
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
try {
  const page = await browser.newPage();
  page.on('console', (m) => console.info('page:', m.text()));
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  for (const id of ids) {
    const dataUrl = await page.evaluate(
      ([url, view]) =>
        (window as unknown as { renderCharacter(u: string, v?: string): Promise<string> }).renderCharacter(
          url,
          view,
        ),
      [`/models/${id}.glb`, process.env.FORGE_VIEW] as const,
    );
    const file = join(outDir, `${id}.png`);
    writeFileSync(file, Buffer.from(dataUrl.split(',')[1] ?? '', 'base64'));
    console.info(`wrote ${file}`);
  }
} finally {
  await browser.close();
  server.close();
}
