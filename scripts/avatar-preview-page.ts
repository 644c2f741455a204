/**
 * The page scripts/avatar-preview.ts serves: loads a model like the viewer (GLTFLoader + meshopt),
 * lights it like the viewer (the same STAGE_LIGHTS, client/src/features/avatar/viewer/lights.ts; ACES
 * tone mapping as react-three-fiber sets it) and poses it with the client's animation engine
 * (`/engine.js`), one still frame per view. `renderCharacter(url, id, only)` renders only the views
 * whose labels start with one of `only`, at twice the size.
 */
import { STAGE_LIGHTS } from '../client/src/features/avatar/viewer/lights.ts';

export const PREVIEW_PAGE = `<!doctype html><html><body style="margin:0;background:#1f2130">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/","three/examples/jsm/":"/three/examples/jsm/"}}</script>
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { createAvatarAnimator } from '/engine.js';
const W = 300, H = 380;
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.toneMapping = THREE.ACESFilmicToneMapping;
renderer.shadowMap.enabled = true;
const scene = new THREE.Scene();
scene.background = new THREE.Color('#1f2130');
const LIGHTS = ${JSON.stringify(STAGE_LIGHTS)};
scene.add(new THREE.HemisphereLight(LIGHTS.hemisphere.sky, LIGHTS.hemisphere.ground, LIGHTS.hemisphere.intensity));
for (const l of [LIGHTS.key, ...LIGHTS.rims]) {
  const light = new THREE.DirectionalLight(l.color, l.intensity); light.position.set(...l.position); scene.add(light);
}
const camera = new THREE.PerspectiveCamera(35, W / H, 0.05, 50);
const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);

// [label, camera, pose]. Cameras: full (body), three4, side, back, portrait, hand, thumb (phone size).
const VIEWS = [
  ['idle', 'full', {}],
  ['idle 3/4', 'three4', {}],
  ['side', 'side', {}],
  ['back', 'back', {}],
  ['rest pose', 'full', { rest: true }],
  ['greeting', 'full', { gesture: 'greeting', at: 1400 }],
  ['thinking', 'full', { gesture: 'thinking', at: 2000 }],
  ['neutral', 'portrait', {}],
  ['happy', 'portrait', { emotion: 'happy' }],
  ['sad', 'portrait', { emotion: 'sad' }],
  ['angry', 'portrait', { emotion: 'angry' }],
  ['surprised', 'portrait', { emotion: 'surprised' }],
  ['fearful', 'portrait', { emotion: 'fearful' }],
  ['excited', 'portrait', { emotion: 'excited' }],
  ['calm', 'portrait', { emotion: 'calm' }],
  ['viseme aa', 'portrait', { viseme: 'viseme_aa' }],
  ['viseme O', 'portrait', { viseme: 'viseme_O' }],
  ['viseme E', 'portrait', { viseme: 'viseme_E' }],
  ['viseme FF', 'portrait', { viseme: 'viseme_FF' }],
  ['blink', 'portrait', { morphs: { eyeBlinkLeft: 1, eyeBlinkRight: 1 } }],
  ['hand (idle)', 'hand', {}],
  ['hand (idle, front)', 'handFront', {}],
  ['hand (angry)', 'hand', { gesture: 'angry', at: 1500 }],
  ['hand (rest, above)', 'handTop', { rest: true }],
  ['clapping', 'upper', { gesture: 'clapping', at: 1500 }],
  ['small: neutral, happy, sad, angry', 'thumbs', {}],
];
const COLS = 8;
const lineup = [];

function frame(model, kind) {
  const b = {};
  model.traverse((o) => { if (o.isBone) b[o.name] = o.getWorldPosition(new THREE.Vector3()); });
  const top = b.HeadTop_End.y, shoulder = b.LeftArm.y;
  if (kind === 'portrait' || kind === 'thumbs') {
    // Head and shoulders: from just below the shoulders to above the skull.
    const lo = shoulder - 0.16, hi = top + 0.1, h = hi - lo;
    const d = h / 2 / Math.tan((35 * Math.PI) / 360);
    camera.position.set(0, (lo + hi) / 2 + 0.02, d); camera.lookAt(0, (lo + hi) / 2, 0);
  } else if (kind === 'side') { camera.position.set(3.6, 0.95, 0.6); camera.lookAt(0, 0.86, 0); }
  else if (kind === 'back') { camera.position.set(0, 0.95, -3.7); camera.lookAt(0, 0.86, 0); }
  else if (kind === 'three4') { camera.position.set(2.2, 1.1, 2.9); camera.lookAt(0, 0.86, 0); }
  else if (kind === 'upper') { camera.position.set(0.9, 1.35, 1.6); camera.lookAt(0, 1.05, 0); }
  else if (kind === 'hand') {
    const h = b.LeftHand.clone().lerp(b.LeftHandMiddle1, 0.6);
    camera.position.set(h.x + 0.28, h.y + 0.06, h.z + 0.3); camera.lookAt(h);
  } else if (kind === 'handTop') {
    const h = b.LeftHand.clone().lerp(b.LeftHandMiddle1, 0.5);
    camera.position.set(h.x, h.y + 0.3, h.z + 0.12); camera.lookAt(h);
  } else if (kind === 'handFront') {
    const h = b.LeftHand.clone().lerp(b.LeftHandMiddle1, 0.6);
    camera.position.set(h.x - 0.02, h.y + 0.05, h.z + 0.4); camera.lookAt(h);
  } else { camera.position.set(0, 0.95, 3.9); camera.lookAt(0, 0.86, 0); }
}

function pose(model, p) {
  const animator = createAvatarAnimator(model, { pool: null, seed: 7 });
  if (p.rest) { animator.dispose(); model.updateMatrixWorld(true); return; }
  animator.setOverrides({ still: true, emotion: p.emotion ?? null, viseme: p.viseme ?? null });
  animator.update(1000);
  if (p.gesture) animator.playGesture(p.gesture, 3000);
  animator.update(1000 + 17);
  animator.update(1000 + (p.at ?? 40));
  for (const [name, w] of Object.entries(p.morphs ?? {}))
    model.traverse((o) => { const i = o.morphTargetDictionary?.[name]; if (i !== undefined) o.morphTargetInfluences[i] = w; });
  model.updateMatrixWorld(true);
  return animator;
}

function shot(model, kind, p, w = W, h = H) {
  renderer.setSize(w, h);
  camera.aspect = w / h; camera.updateProjectionMatrix();
  const animator = pose(model, p);
  frame(model, kind);
  renderer.render(scene, camera);
  animator?.dispose();
  const c = document.createElement('canvas'); c.width = w; c.height = h;
  c.getContext('2d').drawImage(renderer.domElement, 0, 0);
  return c;
}

function label(ctx, text, x, y) {
  ctx.font = '12px sans-serif';
  ctx.fillStyle = 'rgba(0,0,0,0.6)'; ctx.fillRect(x + 6, y + 6, ctx.measureText(text).width + 12, 20);
  ctx.fillStyle = '#fff'; ctx.fillText(text, x + 12, y + 20);
}

window.renderCharacter = async (url, id, only) => {
  const views = only ? VIEWS.filter(([text]) => only.some((o) => text.startsWith(o))) : VIEWS;
  const S = only ? 2 : 1;
  const gltf = await loader.loadAsync(url);
  const model = gltf.scene;
  model.traverse((o) => { o.frustumCulled = false; o.castShadow = true; });
  scene.add(model);
  const perRow = only ? 3 : COLS;
  const cols = Math.min(perRow, views.length), rows = Math.ceil(views.length / perRow);
  const out = document.createElement('canvas'); out.width = W * S * cols; out.height = H * S * rows;
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#1f2130'; ctx.fillRect(0, 0, out.width, out.height);
  for (const [i, [text, kind, p]] of views.entries()) {
    const x = (i % perRow) * W * S, y = Math.floor(i / perRow) * H * S;
    if (kind === 'thumbs') {
      // What a phone shows: the portrait at 96 x 120 px, four emotions.
      [{}, { emotion: 'happy' }, { emotion: 'sad' }, { emotion: 'angry' }].forEach((e, k) =>
        ctx.drawImage(shot(model, 'portrait', e, 96, 120), x + (k % 2) * 130 + 20, y + Math.floor(k / 2) * 150 + 50));
    } else ctx.drawImage(shot(model, kind, p, W * S, H * S), x, y);
    label(ctx, text, x, y);
  }
  if (!only) lineup.push([id, shot(model, 'full', {}, 220, 340), shot(model, 'portrait', { emotion: 'happy' }, 220, 260)]);
  scene.remove(model);
  return out.toDataURL('image/png');
};

window.renderLineup = () => {
  const out = document.createElement('canvas'); out.width = 220 * lineup.length; out.height = 600;
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#1f2130'; ctx.fillRect(0, 0, out.width, out.height);
  lineup.forEach(([id, full, face], i) => {
    ctx.drawImage(full, i * 220, 0); ctx.drawImage(face, i * 220, 340); label(ctx, id, i * 220, 0);
  });
  return out.toDataURL('image/png');
};
window.ready = true;
</script></body></html>`;
