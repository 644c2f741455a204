import { createHash } from 'node:crypto';
import { REVISION, type Group } from 'three';
import { PartList, assemble } from './assemble.ts';
import type { CharacterSpec } from './character.ts';
import { MORPH_NAMES } from './face-states.ts';
import { buildFace } from './face.ts';
import { createHeadShape } from './head.ts';
import { BASE_PROPORTIONS, createRig } from './rig.ts';
import { compressGlb, exportGlb, validateGlb } from './export.ts';

/**
 * Bump when the forge's code changes what it makes: it is part of every model's version, so a
 * new forge rebuilds cached models (the parameters of each character are hashed as well).
 */
export const FORGE_REVISION = 4;

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
