import type { Accessor, Document, Primitive } from '@gltf-transform/core';
import { sortPrimitiveWeights } from '@gltf-transform/functions';

/**
 * Repairs of what exporters commonly get wrong (SPEC.md AU-12), so a model the validator faults
 * for a fixable reason is mended rather than refused. Data fixes run on the glTF-Transform
 * document; layout and bounds errors go away because the document is written anew; animation
 * errors go with the animations (the engine animates the avatar itself). The result is validated
 * again — what is still wrong is refused with the validator's own findings.
 */

/** Validator errors a rewrite of the document fixes by itself. */
const FIXED_BY_REWRITE = new Set([
  'ACCESSOR_MATRIX_ALIGNMENT',
  'ACCESSOR_OFFSET_ALIGNMENT',
  'ACCESSOR_TOTAL_OFFSET_ALIGNMENT',
  'BUFFER_VIEW_INVALID_BYTE_STRIDE',
  'IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE',
  'MESH_PRIMITIVE_ACCESSOR_UNALIGNED',
  'MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE',
  'MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE',
  'SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE',
  'BUFFER_VIEW_TARGET_OVERRIDE',
  'ACCESSOR_USAGE_OVERRIDE',
  'GLB_CHUNK_LENGTH_UNALIGNED',
  'BUFFER_DATA_URI_MIME_TYPE_INVALID',
  'MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS',
  'ACCESSOR_MIN_MISMATCH',
  'ACCESSOR_MAX_MISMATCH',
  'ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND',
  'ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND',
  'UNUSED_EXTENSION_REQUIRED',
  'NON_REQUIRED_EXTENSION',
  'UNDECLARED_EXTENSION',
]);
/** Validator errors the data fixes below mend. */
const FIXED_BY_DATA = new Set([
  'ACCESSOR_WEIGHTS_NON_NORMALIZED',
  'ACCESSOR_WEIGHTS_NEGATIVE',
  'ACCESSOR_JOINTS_INDEX_DUPLICATE',
  'ACCESSOR_VECTOR3_NON_UNIT',
  'ACCESSOR_INVALID_SIGN',
  'ROTATION_NON_UNIT',
  'MESH_INVALID_WEIGHTS_COUNT',
  'NODE_WEIGHTS_INVALID',
  'NODE_SKIN_WITH_NON_SKINNED_MESH',
]);
const isAnimationCode = (code: string) => /^(ACCESSOR_)?ANIMATION_|^KHR_ANIMATION_POINTER/.test(code);

/** True when processing can mend this validator error. */
export const isRepairable = (code: string): boolean =>
  FIXED_BY_REWRITE.has(code) || FIXED_BY_DATA.has(code) || isAnimationCode(code);

const EPSILON = 1e-3;

/** Each data fix: what it changed, counted in the places the validator would flag. */
export function repairDocument(doc: Document): Record<string, number> {
  const fixed: Record<string, number> = {};
  const add = (code: string, n: number) => {
    if (n > 0) fixed[code] = (fixed[code] ?? 0) + n;
  };
  const root = doc.getRoot();
  for (const mesh of root.listMeshes()) {
    const targets = mesh.listPrimitives()[0]?.listTargets().length ?? 0;
    const weights = mesh.getWeights();
    if (weights.length !== targets) {
      mesh.setWeights(Array.from({ length: targets }, (_, i) => weights[i] ?? 0));
      add('MESH_INVALID_WEIGHTS_COUNT', 1);
    }
    for (const prim of mesh.listPrimitives()) {
      add('ACCESSOR_WEIGHTS_NON_NORMALIZED', normaliseWeights(prim));
      const normal = prim.getAttribute('NORMAL');
      if (normal) add('ACCESSOR_VECTOR3_NON_UNIT', unitVectors(normal));
      const tangent = prim.getAttribute('TANGENT');
      if (tangent) {
        add('ACCESSOR_VECTOR3_NON_UNIT', unitVectors(tangent));
        add('ACCESSOR_INVALID_SIGN', tangentSigns(tangent));
      }
    }
  }
  for (const node of root.listNodes()) {
    const [x, y, z, w] = node.getRotation();
    const length = Math.hypot(x, y, z, w);
    if (Math.abs(length - 1) > EPSILON) {
      node.setRotation(length > 0 ? [x / length, y / length, z / length, w / length] : [0, 0, 0, 1]);
      add('ROTATION_NON_UNIT', 1);
    }
    const mesh = node.getMesh();
    if (node.getSkin() && mesh && !mesh.listPrimitives().some((p) => p.getAttribute('JOINTS_0'))) {
      node.setSkin(null);
      add('NODE_SKIN_WITH_NON_SKINNED_MESH', 1);
    }
    const targets = mesh?.listPrimitives()[0]?.listTargets().length ?? 0;
    const nodeWeights = node.getWeights();
    if (nodeWeights.length && nodeWeights.length !== targets) {
      node.setWeights(Array.from({ length: targets }, (_, i) => nodeWeights[i] ?? 0));
      add('NODE_WEIGHTS_INVALID', 1);
    }
  }
  return fixed;
}

/** Removes every embedded animation; their accessors go with the next prune. */
export function removeAnimations(doc: Document): number {
  const animations = doc.getRoot().listAnimations();
  for (const animation of animations) animation.dispose();
  return animations.length;
}

/**
 * Skin weights: negatives clamped to 0, a vertex weighing nothing bound fully to its first joint,
 * duplicate joints merged, then every vertex sorted and scaled to sum to 1 (glTF-Transform's
 * `sortPrimitiveWeights`, exact for normalised integers too). Returns the vertices changed.
 */
function normaliseWeights(prim: Primitive): number {
  const sets: { weights: Accessor; joints: Accessor }[] = [];
  for (let i = 0; ; i++) {
    const weights = prim.getAttribute(`WEIGHTS_${i}`);
    const joints = prim.getAttribute(`JOINTS_${i}`);
    if (!weights || !joints) break;
    sets.push({ weights, joints });
  }
  const position = prim.getAttribute('POSITION');
  if (!sets.length || !position) return 0;
  let changed = 0;
  const element = [0, 0, 0, 0];
  for (let v = 0; v < position.getCount(); v++) {
    const weights: number[] = [];
    const joints: number[] = [];
    for (const set of sets) {
      weights.push(...set.weights.getElement(v, element));
      joints.push(...set.joints.getElement(v, element));
    }
    let dirty = false;
    const firstSlot = new Map<number, number>();
    for (let k = 0; k < weights.length; k++) {
      if ((weights[k] ?? 0) < 0) [weights[k], dirty] = [0, true];
      if ((weights[k] ?? 0) === 0) continue;
      const first = firstSlot.get(joints[k] ?? 0);
      if (first === undefined) firstSlot.set(joints[k] ?? 0, k);
      else {
        // A joint named twice: its weight joins the first slot, this one is emptied.
        weights[first] = (weights[first] ?? 0) + (weights[k] ?? 0);
        [weights[k], joints[k], dirty] = [0, 0, true];
      }
    }
    const sum = weights.reduce((a, b) => a + b, 0);
    if (sum === 0) [weights[0], dirty] = [1, true];
    else if (Math.abs(sum - 1) > EPSILON) dirty = true;
    if (!dirty) continue;
    changed += 1;
    sets.forEach((set, s) => {
      set.weights.setElement(v, weights.slice(s * 4, s * 4 + 4));
      set.joints.setElement(v, joints.slice(s * 4, s * 4 + 4));
    });
  }
  if (changed) sortPrimitiveWeights(prim);
  return changed;
}

/** Normalises the xyz of each element; returns how many were off. */
function unitVectors(accessor: Accessor): number {
  let changed = 0;
  const el: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, el);
    const [x = 0, y = 0, z = 0] = el;
    const length = Math.hypot(x, y, z);
    if (Math.abs(length - 1) <= 5e-4) continue;
    const [nx, ny, nz] = length > 0 ? [x / length, y / length, z / length] : [0, 0, 1];
    el[0] = nx;
    el[1] = ny;
    el[2] = nz;
    accessor.setElement(i, el);
    changed += 1;
  }
  return changed;
}

/** A tangent's w is its handedness: exactly 1 or -1. */
function tangentSigns(accessor: Accessor): number {
  let changed = 0;
  const el: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, el);
    const w = el[3] ?? 1;
    if (w === 1 || w === -1) continue;
    el[3] = w < 0 ? -1 : 1;
    accessor.setElement(i, el);
    changed += 1;
  }
  return changed;
}
