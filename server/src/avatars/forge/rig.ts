import { Bone, Matrix4, Vector3 } from 'three';

/**
 * The canonical rig (ARCHITECTURE §6): Mixamo bone names without prefix, 68 bones, rest T-pose
 * (level upper arms, soft elbows, relaxed hands), Y up, facing +Z, the character's left on +X.
 * Every bone keeps an identity rotation: a bone's local frame is the world frame, so "rotate
 * LeftArm 70° about Z" means the same on every avatar.
 */

export const FINGER_NAMES = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'] as const;
export type Side = 'Left' | 'Right';
export const SIDES: readonly Side[] = ['Left', 'Right'];

/** Body measurements in metres, all at rest. X offsets are for the left side (mirrored). */
export interface Proportions {
  hipsY: number;
  hipX: number;
  kneeY: number;
  ankleY: number;
  /** Ball of the foot, forward of the ankle. */
  toeZ: number;
  toeEndZ: number;
  spineY: number;
  spine1Y: number;
  spine2Y: number;
  neckY: number;
  headY: number;
  /** Top of the skull (HeadTop_End). */
  headTopY: number;
  /** Centre of the skull sphere, forward offset. */
  headCenterZ: number;
  shoulderX: number;
  shoulderY: number;
  armX: number;
  elbowX: number;
  wristX: number;
  /** Knuckles of the middle finger, from the wrist. */
  palmLength: number;
  fingerLength: number;
  /** Scales the hand's bones (the golem's big stone hands). */
  handScale: number;
  /**
   * The forearms' forward bend at rest (rad): soft elbows, so the arms hang relaxed once the
   * engine lowers them. The upper arms stay level, so the rest pose still reads as a T-pose.
   */
  elbowBend: number;
  eyeX: number;
  eyeY: number;
  eyeZ: number;
  jawY: number;
  jawZ: number;
}

export const BASE_PROPORTIONS: Proportions = {
  hipsY: 0.8,
  hipX: 0.085,
  kneeY: 0.44,
  ankleY: 0.075,
  toeZ: 0.085,
  toeEndZ: 0.15,
  spineY: 0.88,
  spine1Y: 0.98,
  spine2Y: 1.08,
  neckY: 1.23,
  headY: 1.3,
  headTopY: 1.62,
  headCenterZ: 0.005,
  shoulderX: 0.035,
  shoulderY: 1.2,
  armX: 0.16,
  elbowX: 0.39,
  wristX: 0.6,
  palmLength: 0.066,
  fingerLength: 0.052,
  handScale: 1,
  elbowBend: 0.24,
  eyeX: 0.058,
  eyeY: 1.44,
  eyeZ: 0.07,
  jawY: 1.37,
  jawZ: 0.02,
};

/**
 * The left forearm's rest turn: a rotation about the elbow (about −Y, towards +Z) taking the
 * straight T-pose forearm, hand and fingers to where they rest. The right side mirrors it.
 */
export function forearmBend(p: Proportions): Matrix4 {
  const elbow = new Vector3(p.elbowX, p.shoulderY, 0);
  return new Matrix4()
    .makeTranslation(elbow.x, elbow.y, elbow.z)
    .multiply(new Matrix4().makeRotationY(-p.elbowBend))
    .multiply(new Matrix4().makeTranslation(-elbow.x, -elbow.y, -elbow.z));
}

/** `forearmBend` for a side: the right one is the left mirrored across X. */
function bendFor(side: Side, p: Proportions): Matrix4 {
  const m = forearmBend(p);
  if (side === 'Left') return m;
  const mirror = new Matrix4().makeScale(-1, 1, 1);
  return mirror.clone().multiply(m).multiply(mirror);
}

export interface Rig {
  root: Bone;
  bones: Map<string, Bone>;
  /** Rest position of every bone in world space. */
  rest: Map<string, Vector3>;
  /** The bone a bone "points at" (its main child), for skinning segments. */
  tip: Map<string, string>;
  proportions: Proportions;
}

interface BoneDef {
  name: string;
  parent: string | null;
  at: Vector3;
}

/** Where each finger starts on the hand (from the wrist, left hand, before `handScale`). */
const FINGER_ROOTS: Record<(typeof FINGER_NAMES)[number], { x: number; y: number; z: number; len: number }> =
  {
    Thumb: { x: 0.012, y: -0.007, z: 0.01, len: 0.85 },
    Index: { x: 1, y: 0.001, z: 0.021, len: 0.94 },
    Middle: { x: 1.04, y: 0.002, z: 0.007, len: 1 },
    Ring: { x: 0.99, y: 0.001, z: -0.007, len: 0.95 },
    Pinky: { x: 0.9, y: -0.001, z: -0.02, len: 0.78 },
  };

/**
 * A relaxed hand, left side (the right mirrors it): the fingers fan out a little and curl
 * towards the palm, more from index to pinky (the natural cascade of a resting hand); the thumb
 * heads forward and down, slightly flexed. Radians per joint, about −Z (towards the palm of a
 * T-pose, palm down).
 */
const FINGER_CURL: Record<(typeof FINGER_NAMES)[number], number> = {
  Thumb: 0.18,
  Index: 0.16,
  Middle: 0.22,
  Ring: 0.27,
  Pinky: 0.32,
};
const FINGER_SPLAY: Record<(typeof FINGER_NAMES)[number], number> = {
  Thumb: 0,
  Index: 0.07,
  Middle: 0.01,
  Ring: -0.06,
  Pinky: -0.14,
};

function fingerDefs(side: Side, p: Proportions): BoneDef[] {
  const s = side === 'Left' ? 1 : -1;
  const k = p.handScale;
  const hand = `${side}Hand`;
  const y = p.shoulderY - 0.003 * k;
  const defs: BoneDef[] = [];
  for (const finger of FINGER_NAMES) {
    const r = FINGER_ROOTS[finger];
    const thumb = finger === 'Thumb';
    const seg = (p.fingerLength * k * r.len) / 3;
    // The thumb's base bone (its metacarpal) is longer; the fingers' three phalanges shorten.
    const lengths = thumb ? [seg * 1.5, seg * 1.05, seg * 0.9] : [seg * 1.2, seg * 0.98, seg * 0.82];
    const dir = thumb
      ? new Vector3(0.78 * s, -0.34, 0.52).normalize()
      : new Vector3(s, 0, 0).applyAxisAngle(new Vector3(0, 1, 0), FINGER_SPLAY[finger] * -s);
    // The flexion axis: perpendicular to the finger and the palm's normal (−Y), the thumb's
    // turned towards the palm's centre.
    const axis = thumb ? new Vector3(-0.54 * s, -0.52, 0.25).normalize() : new Vector3(0, 0, 1);
    const curl = FINGER_CURL[finger];
    const rootX = thumb ? r.x * k : p.palmLength * k * r.x;
    let at = new Vector3(p.wristX * s + rootX * s, y + r.y * k, r.z * k);
    let parent = hand;
    for (let i = 1; i <= 4; i++) {
      const name = `${side}Hand${finger}${i}`;
      defs.push({ name, parent, at: at.clone() });
      parent = name;
      if (i === 4) break;
      dir.applyAxisAngle(axis, -curl * s * (thumb && i === 1 ? 0.4 : 1));
      at = at.clone().addScaledVector(dir, lengths[i - 1] ?? seg);
    }
  }
  return defs;
}

function boneDefs(p: Proportions): BoneDef[] {
  const v = (x: number, y: number, z = 0) => new Vector3(x, y, z);
  const defs: BoneDef[] = [
    { name: 'Hips', parent: null, at: v(0, p.hipsY) },
    { name: 'Spine', parent: 'Hips', at: v(0, p.spineY) },
    { name: 'Spine1', parent: 'Spine', at: v(0, p.spine1Y) },
    { name: 'Spine2', parent: 'Spine1', at: v(0, p.spine2Y) },
    { name: 'Neck', parent: 'Spine2', at: v(0, p.neckY) },
    { name: 'Head', parent: 'Neck', at: v(0, p.headY) },
    { name: 'HeadTop_End', parent: 'Head', at: v(0, p.headTopY) },
    { name: 'Jaw', parent: 'Head', at: v(0, p.jawY, p.jawZ) },
    { name: 'LeftEye', parent: 'Head', at: v(p.eyeX, p.eyeY, p.eyeZ) },
    { name: 'RightEye', parent: 'Head', at: v(-p.eyeX, p.eyeY, p.eyeZ) },
  ];
  for (const side of SIDES) {
    const s = side === 'Left' ? 1 : -1;
    const y = p.shoulderY;
    const bend = bendFor(side, p);
    defs.push(
      { name: `${side}Shoulder`, parent: 'Spine2', at: v(p.shoulderX * s, y) },
      { name: `${side}Arm`, parent: `${side}Shoulder`, at: v(p.armX * s, y) },
      { name: `${side}ForeArm`, parent: `${side}Arm`, at: v(p.elbowX * s, y) },
      { name: `${side}Hand`, parent: `${side}ForeArm`, at: v(p.wristX * s, y).applyMatrix4(bend) },
      ...fingerDefs(side, p).map((d) => ({ ...d, at: d.at.applyMatrix4(bend) })),
    );
  }
  for (const side of SIDES) {
    const x = p.hipX * (side === 'Left' ? 1 : -1);
    defs.push(
      { name: `${side}UpLeg`, parent: 'Hips', at: v(x, p.hipsY - 0.03) },
      { name: `${side}Leg`, parent: `${side}UpLeg`, at: v(x, p.kneeY) },
      { name: `${side}Foot`, parent: `${side}Leg`, at: v(x, p.ankleY) },
      { name: `${side}ToeBase`, parent: `${side}Foot`, at: v(x, 0.022, p.toeZ) },
      { name: `${side}Toe_End`, parent: `${side}ToeBase`, at: v(x, 0.022, p.toeEndZ) },
    );
  }
  return defs;
}

/** Every canonical bone name, in rig order (68). */
export const RIG_BONE_NAMES: readonly string[] = boneDefs(BASE_PROPORTIONS).map((d) => d.name);

export function createRig(p: Proportions): Rig {
  const bones = new Map<string, Bone>();
  const rest = new Map<string, Vector3>();
  const tip = new Map<string, string>();
  let root: Bone | null = null;
  for (const def of boneDefs(p)) {
    const bone = new Bone();
    bone.name = def.name;
    rest.set(def.name, def.at);
    if (def.parent === null) {
      bone.position.copy(def.at);
      root = bone;
    } else {
      const parent = bones.get(def.parent);
      if (!parent) throw new Error(`rig: ${def.name} before its parent ${def.parent}`);
      bone.position.copy(def.at).sub(rest.get(def.parent) ?? new Vector3());
      parent.add(bone);
      if (!tip.has(def.parent)) tip.set(def.parent, def.name);
    }
    bones.set(def.name, bone);
  }
  if (!root) throw new Error('rig: no root');
  // Main children where the first child is not the one the bone points at.
  tip.set('Hips', 'Spine');
  tip.set('Spine2', 'Neck');
  tip.set('Head', 'HeadTop_End');
  for (const side of SIDES) tip.set(`${side}Hand`, `${side}HandMiddle1`);
  root.updateMatrixWorld(true);
  return { root, bones, rest, tip, proportions: p };
}
