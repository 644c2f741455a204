import { createHash } from 'node:crypto';
import { REVISION, type Group } from 'three';
import { PartList, assemble } from './assemble.ts';
import type { CharacterSpec } from './character.ts';
import { MORPH_NAMES } from './face-states.ts';
import { buildFace } from './face.ts';
import { createHeadShape } from './head.ts';
import { BASE_PROPORTIONS, createRig, type Rig } from './rig.ts';
import type { SkinSpec } from './skinning.ts';
import { compressGlb, exportGlb, validateGlb } from './export.ts';

/**
 * Bump when the forge's code changes what it makes: it is part of every model's version, so a
 * new forge rebuilds cached models (the parameters of each character are hashed as well).
 */
export const FORGE_REVISION = 9;

/** What a character's bytes depend on, hashed: the cache key and the HTTP ETag. */
export function modelVersion(spec: CharacterSpec): string {
  let version = versions.get(spec);
  if (!version) {
    const data = JSON.stringify([FORGE_REVISION, REVISION, spec]);
    version = createHash('sha256').update(data).digest('hex').slice(0, 16);
    versions.set(spec, version);
  }
  return version;
}
const versions = new WeakMap<CharacterSpec, string>();

/**
 * Heads are drawn at this scale about the neck (the Head bone), after everything on them is
 * placed: a big, readable face at portrait framing — chibi proportions, about a fifth of the
 * height — without re-tuning every face and hat.
 */
export const HEAD_SCALE = 1.1;

const HEAD_BONES = new Set(['Head', 'HeadTop_End', 'Jaw', 'LeftEye', 'RightEye']);

function onHead(skin: SkinSpec): boolean {
  if ('rigid' in skin) return HEAD_BONES.has(skin.rigid);
  if ('fixed' in skin) return skin.fixed.every(([bone]) => HEAD_BONES.has(bone));
  return skin.chain.every((bone) => HEAD_BONES.has(bone));
}

/** Scales every part that rides on the head, its morphs and the head's bones, about the Head bone. */
function scaleHead(rig: Rig, list: PartList, k: number): void {
  if (k === 1) return;
  const pivot = rig.rest.get('Head');
  if (!pivot) throw new Error('forge: no Head bone');
  const done = new Set<object>();
  for (const part of list.parts) {
    // A geometry or morph shared by two parts is scaled once.
    if (!onHead(part.skin) || done.has(part.geometry)) continue;
    done.add(part.geometry);
    part.geometry.translate(-pivot.x, -pivot.y, -pivot.z).scale(k, k, k).translate(pivot.x, pivot.y, pivot.z);
    for (const delta of part.morphs?.values() ?? [])
      for (let i = 0; i < delta.length; i++) delta[i] = (delta[i] ?? 0) * k;
  }
  for (const name of HEAD_BONES) {
    if (name === 'Head') continue;
    const bone = rig.bones.get(name);
    const rest = rig.rest.get(name);
    if (!bone || !rest) continue;
    bone.position.multiplyScalar(k);
    rest.sub(pivot).multiplyScalar(k).add(pivot);
  }
  rig.root.updateMatrixWorld(true);
}

/** The character as a three.js scene: one skeleton, Body/Head/Face skinned meshes. */
export function buildScene(spec: CharacterSpec): Group {
  const base = { ...BASE_PROPORTIONS, ...spec.proportions };
  const h = spec.head;
  const head = createHeadShape({
    ...h,
    center: [0, base.headY + h.lift, base.headCenterZ + (h.forward ?? 0)],
  });
  const f = spec.face;
  // Eye bones sit at the skull's centre of curvature behind each eye: turning them slides the
  // iris along the skin instead of into it (see IRIS_EYE_SHARE in face.ts).
  const eye = head.project(f.eyeX, f.eyeY);
  const pivot = eye.p.clone().addScaledVector(eye.n, -(h.radii[0] + h.radii[2]) / 2);
  const proportions = {
    ...base,
    eyeX: pivot.x,
    eyeY: pivot.y,
    eyeZ: pivot.z,
    jawY: head.center.y + f.mouth.y + 0.035,
    jawZ: head.center.z + 0.02,
  };
  const rig = createRig(proportions);
  const list = new PartList();
  list.add(head.geometry(), {
    color: h.color ?? f.skin,
    skin: { rigid: 'Head' },
    slot: h.slot ?? 'skin',
    mesh: 'Head',
  });
  buildFace(list, head, f);
  spec.build({ rig, list, head });
  scaleHead(rig, list, spec.headScale ?? HEAD_SCALE);
  return assemble(rig, list, MORPH_NAMES, spec.look ?? {}, spec.id);
}

export interface ForgedModel {
  glb: Uint8Array;
  /** Size before compression, for the budget table. */
  rawBytes: number;
  version: string;
}

/** Builds, validates (0 errors or it throws) and compresses one character. */
export async function forgeModel(spec: CharacterSpec): Promise<ForgedModel> {
  const raw = await exportGlb(buildScene(spec));
  const report = await validateGlb(raw);
  if (report.issues.numErrors > 0) {
    const first = report.issues.messages
      .filter((m) => m.severity === 0)
      .slice(0, 5)
      .map((m) => `${m.code} ${m.pointer ?? ''} ${m.message}`)
      .join('; ');
    throw new Error(`forge: ${spec.id} fails glTF validation: ${first}`);
  }
  return { glb: await compressGlb(raw), rawBytes: raw.byteLength, version: modelVersion(spec) };
}
