/**
 * Rig normalisation (ARCHITECTURE §6): finds the canonical bones and face morphs of any glTF
 * scene, detects T-/A-pose and facing, and prepares what the animator needs to apply canonical
 * offsets to this model. Never throws on a model that lacks something: the report lists it.
 */
import { Euler, Matrix4, Quaternion, Vector3, type Bone, type Mesh, type Object3D } from 'three';
import { judgeRig } from '@alma/protocol';
import { CANONICAL_BONES, VISEME_MORPHS, type BasePose, type RigReport } from './contract';
import type { RigProfile } from './frame';
import type { Vec3 } from './math';

type Side = 'Left' | 'Right';

/** Where the arms hang at idle, radians below horizontal (a relaxed stance). */
export const IDLE_ARM_DROP = 1.33;
/** Upper-arm drop (rad) under which the rest pose counts as a T-pose, and the A-pose range top. */
const T_POSE_MAX_DROP = 0.26;
const A_POSE_MAX_DROP = 1.05;

export interface MorphBinding {
  mesh: Mesh;
  index: number;
}

export interface BoneBinding {
  node: Object3D;
  /** Local rotation at rest. */
  rest: Quaternion;
  /** Maps a canonical-frame rotation R into this bone's local offset: Q · R · Q⁻¹. */
  conj: Quaternion;
  conjInverse: Quaternion;
}

export interface RigAnalysis {
  report: RigReport;
  profile: RigProfile;
  bones: Map<string, BoneBinding>;
  morphs: Map<string, MorphBinding[]>;
  /** Head node, for gaze. */
  head: Object3D | null;
}

function collectBones(root: Object3D): Object3D[] {
  const bones: Object3D[] = [];
  root.traverse((node) => {
    if ((node as Bone).isBone) bones.push(node);
  });
  return bones;
}

function depthOf(node: Object3D, root: Object3D): number {
  let depth = 0;
  for (let n: Object3D | null = node; n && n !== root; n = n.parent) depth += 1;
  return depth;
}

/**
 * Bones and morphs by canonical name, as the protocol's one judge reads their names (the server's
 * upload report asks the same judge): each name bound back to its node, or to every mesh that
 * carries a morph of that name.
 */
function bindRig(root: Object3D, bones: Object3D[]) {
  const byName = new Map<string, Object3D>();
  for (const bone of bones) if (!byName.has(bone.name)) byName.set(bone.name, bone);
  const morphSlots = new Map<string, MorphBinding[]>();
  root.traverse((node) => {
    const mesh = node as Mesh;
    const dict = mesh.morphTargetDictionary;
    if (!mesh.isMesh || !dict || !mesh.morphTargetInfluences) return;
    for (const [name, index] of Object.entries(dict))
      morphSlots.set(name, [...(morphSlots.get(name) ?? []), { mesh, index }]);
  });
  const judged = judgeRig({
    bones: [...byName.values()].map((node) => ({ name: node.name, depth: depthOf(node, root) })),
    morphs: [...morphSlots.keys()],
  });
  const map = new Map<string, Object3D>();
  for (const [canonical, name] of judged.boneMap) map.set(canonical, byName.get(name) as Object3D);
  const morphs = new Map<string, MorphBinding[]>();
  for (const [canonical, names] of judged.morphMap)
    morphs.set(
      canonical,
      names.flatMap((n) => morphSlots.get(n) ?? []),
    );
  return { judged, map, morphs };
}

const AXES: Record<RigReport['facing'], Vector3> = {
  '+Z': new Vector3(0, 0, 1),
  '-Z': new Vector3(0, 0, -1),
  '+X': new Vector3(1, 0, 0),
  '-X': new Vector3(-1, 0, 0),
};

/** Positions and rotations relative to the model root (placement in the scene does not matter). */
function rootSpace(root: Object3D) {
  root.updateMatrixWorld(true);
  const inverse = new Matrix4().copy(root.matrixWorld).invert();
  const m = new Matrix4();
  const position = (node: Object3D) =>
    new Vector3().setFromMatrixPosition(m.multiplyMatrices(inverse, node.matrixWorld));
  const rotation = (node: Object3D) => {
    const q = new Quaternion();
    m.multiplyMatrices(inverse, node.matrixWorld).decompose(new Vector3(), q, new Vector3());
    return q;
  };
  return { position, rotation };
}

function detectFacing(map: Map<string, Object3D>, position: (n: Object3D) => Vector3): RigReport['facing'] {
  const pairs: [string, string][] = [
    ['LeftArm', 'RightArm'],
    ['LeftUpLeg', 'RightUpLeg'],
    ['LeftShoulder', 'RightShoulder'],
    ['LeftHand', 'RightHand'],
  ];
  for (const [l, r] of pairs) {
    const left = map.get(l);
    const right = map.get(r);
    if (!left || !right) continue;
    const toLeft = position(left).sub(position(right));
    toLeft.y = 0;
    if (toLeft.lengthSq() < 1e-10) continue;
    // Canonical frame: +X is the character's left, +Y up, +Z forward → forward = left × up.
    const forward = toLeft.normalize().cross(new Vector3(0, 1, 0));
    if (Math.abs(forward.z) >= Math.abs(forward.x)) return forward.z >= 0 ? '+Z' : '-Z';
    return forward.x >= 0 ? '+X' : '-X';
  }
  return '+Z';
}

/** Rotation taking canonical axes (+X left, +Y up, +Z forward) to the model's root axes. */
function canonicalFrame(facing: RigReport['facing']): Quaternion {
  return new Quaternion().setFromUnitVectors(new Vector3(0, 0, 1), AXES[facing]);
}

/** Drop of the upper arm below horizontal at rest (rad), in the canonical frame. */
function armDrop(
  map: Map<string, Object3D>,
  side: Side,
  position: (n: Object3D) => Vector3,
  toCanonical: Quaternion,
): number | null {
  const arm = map.get(`${side}Arm`);
  const fore = map.get(`${side}ForeArm`) ?? map.get(`${side}Hand`);
  if (!arm || !fore) return null;
  const dir = position(fore).sub(position(arm)).applyQuaternion(toCanonical);
  if (dir.lengthSq() < 1e-12) return null;
  return Math.atan2(-dir.y, Math.hypot(dir.x, dir.z));
}

function classifyPose(drop: number | null): BasePose {
  if (drop === null) return 'unknown';
  if (drop < T_POSE_MAX_DROP) return 'T';
  if (drop < A_POSE_MAX_DROP) return 'A';
  return 'unknown';
}

export function analyseRig(root: Object3D): RigAnalysis {
  const warnings: string[] = [];
  const nodes = collectBones(root);
  const { judged, map, morphs } = bindRig(root, nodes);
  if (nodes.length === 0) warnings.push('no bones: a static model, only face morphs (if any) animate');
  const { position, rotation } = rootSpace(root);
  const facing = detectFacing(map, position);
  if (facing !== '+Z') warnings.push(`the model faces ${facing}; the engine turns its offsets to match`);
  const frame = canonicalFrame(facing);
  const toCanonical = frame.clone().invert();

  const leftDrop = armDrop(map, 'Left', position, toCanonical);
  const rightDrop = armDrop(map, 'Right', position, toCanonical);
  const drops = [leftDrop, rightDrop].filter((d): d is number => d !== null);
  const meanDrop = drops.length > 0 ? drops.reduce((a, b) => a + b, 0) / drops.length : null;
  const basePose = classifyPose(meanDrop);
  if (basePose === 'unknown' && nodes.length > 0)
    warnings.push('base pose not recognised (neither T nor A); arms left as modelled');

  // The canonical T-pose → rest rotation: the measured arm drop, about the forward axis.
  const corrections: Record<string, Vec3> = {};
  if (basePose !== 'unknown') {
    if (leftDrop !== null) corrections.LeftArm = [0, 0, -leftDrop];
    if (rightDrop !== null) corrections.RightArm = [0, 0, rightDrop];
  } else {
    // Unknown pose: pretend the arms already hang at idle, so the base pose leaves them be.
    corrections.LeftArm = [0, 0, -IDLE_ARM_DROP];
    corrections.RightArm = [0, 0, IDLE_ARM_DROP];
  }

  const bones = new Map<string, BoneBinding>();
  for (const [canonical, node] of map) {
    const world = rotation(node);
    const conj = world.clone().invert().multiply(frame);
    bones.set(canonical, { node, rest: node.quaternion.clone(), conj, conjInverse: conj.clone().invert() });
  }
  const visemes = judged.visemes;
  const missingVisemes = VISEME_MORPHS.filter((v) => !morphs.has(v));
  if (judged.lipSync !== 'visemes') {
    warnings.push(
      morphs.has('jawOpen')
        ? 'no viseme morphs: the mouth opens with jawOpen'
        : map.has('Jaw')
          ? 'no viseme morphs: the mouth opens with the Jaw bone'
          : 'no viseme morphs, jawOpen or Jaw bone: no lip-sync',
    );
  }
  const boneMap: Record<string, string> = {};
  for (const [canonical, node] of map) boneMap[canonical] = node.name;
  const report: RigReport = {
    rigType: judged.rigType,
    basePose,
    facing,
    boneMap,
    missingBones: CANONICAL_BONES.filter((b) => !map.has(b)),
    visemes,
    missingVisemes,
    hasBlink: judged.blinkingEyes > 0,
    hasFingers: judged.fingers,
    hasFaceShapes: judged.faceShapes.length > 0,
    warnings,
  };
  const profile: RigProfile = {
    bones: [...map.keys()],
    corrections,
    morphs: [...morphs.keys()],
    hasVisemes: judged.lipSync === 'visemes',
    hasJawBone: map.has('Jaw'),
  };
  return { report, profile, bones, morphs, head: map.get('Head') ?? null };
}

/** Rest offsets (canonical XYZ euler) that bring the model from its rest pose to the idle pose. */
export function restOffsets(profile: RigProfile): Record<string, Vec3> {
  const out: Record<string, Vec3> = {};
  const left = profile.corrections.LeftArm;
  const right = profile.corrections.RightArm;
  if (left) out.LeftArm = [0, 0, -IDLE_ARM_DROP - left[2]];
  if (right) out.RightArm = [0, 0, IDLE_ARM_DROP - right[2]];
  return out;
}

/** Scratch objects for `applyBoneOffset`. */
const euler = new Euler();
const offset = new Quaternion();

/** Sets a bone to rest · (Q · R · Q⁻¹), R being a canonical-frame XYZ euler offset. */
export function applyBoneOffset(binding: BoneBinding, rotation: Readonly<Vec3> | undefined): void {
  const q = binding.node.quaternion;
  if (!rotation || (rotation[0] === 0 && rotation[1] === 0 && rotation[2] === 0)) {
    q.copy(binding.rest);
    return;
  }
  offset.setFromEuler(euler.set(rotation[0], rotation[1], rotation[2], 'XYZ'));
  offset.premultiply(binding.conj).multiply(binding.conjInverse);
  q.copy(binding.rest).multiply(offset);
}
