/**
 * Test models built with three.js: humanoid skeletons in any naming convention, T- or A-pose,
 * facing +Z or −Z, with optional face morphs on a SkinnedMesh. For tests and the benchmark only.
 */
import {
  Bone,
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  Group,
  Mesh,
  MeshBasicMaterial,
  Object3D,
  Skeleton,
  SkinnedMesh,
} from 'three';
import { ARKIT_MORPHS, VISEME_MORPHS } from '../contract';

type V = [number, number, number];

/** Canonical bone → parent and offset from the parent (metres, canonical T-pose, facing +Z). */
const LAYOUT: [string, string | null, V][] = [
  ['Hips', null, [0, 1, 0]],
  ['Spine', 'Hips', [0, 0.1, 0]],
  ['Spine1', 'Spine', [0, 0.12, 0]],
  ['Spine2', 'Spine1', [0, 0.12, 0]],
  ['Neck', 'Spine2', [0, 0.15, 0]],
  ['Head', 'Neck', [0, 0.1, 0]],
  ['Jaw', 'Head', [0, -0.02, 0.05]],
  ['LeftEye', 'Head', [0.03, 0.07, 0.08]],
  ['RightEye', 'Head', [-0.03, 0.07, 0.08]],
  ['LeftShoulder', 'Spine2', [0.05, 0.12, 0]],
  ['LeftArm', 'LeftShoulder', [0.1, 0, 0]],
  ['LeftForeArm', 'LeftArm', [0.28, 0, 0]],
  ['LeftHand', 'LeftForeArm', [0.25, 0, 0]],
  ['RightShoulder', 'Spine2', [-0.05, 0.12, 0]],
  ['RightArm', 'RightShoulder', [-0.1, 0, 0]],
  ['RightForeArm', 'RightArm', [-0.28, 0, 0]],
  ['RightHand', 'RightForeArm', [-0.25, 0, 0]],
  ['LeftUpLeg', 'Hips', [0.1, -0.05, 0]],
  ['LeftLeg', 'LeftUpLeg', [0, -0.45, 0]],
  ['LeftFoot', 'LeftLeg', [0, -0.42, 0]],
  ['LeftToeBase', 'LeftFoot', [0, -0.05, 0.12]],
  ['RightUpLeg', 'Hips', [-0.1, -0.05, 0]],
  ['RightLeg', 'RightUpLeg', [0, -0.45, 0]],
  ['RightFoot', 'RightLeg', [0, -0.42, 0]],
  ['RightToeBase', 'RightFoot', [0, -0.05, 0.12]],
];

const FINGER_LAYOUT: [string, V][] = [
  ['Thumb', [0.02, 0, 0.03]],
  ['Index', [0.08, 0, 0.02]],
  ['Middle', [0.08, 0, 0]],
  ['Ring', [0.08, 0, -0.015]],
  ['Pinky', [0.07, 0, -0.03]],
];

export interface RigSpec {
  /** Canonical name → node name; return null to leave the bone out. */
  naming?: (canonical: string) => string | null;
  pose?: 'T' | 'A';
  /** Upper-arm drop of the A-pose (rad); 45° by default. */
  aDrop?: number;
  facing?: '+Z' | '-Z';
  fingers?: boolean;
  /** Morph target names on a SkinnedMesh bound to the skeleton. */
  morphs?: readonly string[];
}

export const mixamoColon = (c: string) => `mixamorig:${c}`;
/** three's GLTFLoader strips ':' from node names. */
export const mixamoStripped = (c: string) => `mixamorig${c}`;
export const mixamoUnderscore = (c: string) => `mixamorig_${c}`;
export const plain = (c: string) => c;

const VRM: Record<string, string> = {
  Hips: 'J_Bip_C_Hips',
  Spine: 'J_Bip_C_Spine',
  Spine1: 'J_Bip_C_Chest',
  Spine2: 'J_Bip_C_UpperChest',
  Neck: 'J_Bip_C_Neck',
  Head: 'J_Bip_C_Head',
  LeftEye: 'J_Adj_L_FaceEye',
  RightEye: 'J_Adj_R_FaceEye',
};
export const vrm = (c: string): string | null => {
  if (VRM[c]) return VRM[c];
  const m = /^(Left|Right)(Shoulder|Arm|ForeArm|Hand|UpLeg|Leg|Foot|ToeBase)$/.exec(c);
  if (!m) return null;
  const part = {
    Shoulder: 'Shoulder',
    Arm: 'UpperArm',
    ForeArm: 'LowerArm',
    Hand: 'Hand',
    UpLeg: 'UpperLeg',
    Leg: 'LowerLeg',
    Foot: 'Foot',
    ToeBase: 'ToeBase',
  }[m[2] ?? ''];
  return `J_Bip_${m[1] === 'Left' ? 'L' : 'R'}_${part ?? ''}`;
};

/** Names a fuzzy matcher has to work out: "Left arm", "upperarm_l", "thigh.R", "chest". */
export const oddNames = (c: string): string | null =>
  (
    ({
      Hips: 'pelvis',
      Spine: 'spine_01',
      Spine1: 'spine_02',
      Spine2: 'chest',
      Neck: 'neck',
      Head: 'head',
      LeftShoulder: 'clavicle.L',
      LeftArm: 'Left arm',
      LeftForeArm: 'Left elbow',
      LeftHand: 'Left wrist',
      RightShoulder: 'R_Collar',
      RightArm: 'upperarm_r',
      RightForeArm: 'forearm_R',
      RightHand: 'hand_r',
      LeftUpLeg: 'Left leg',
      LeftLeg: 'Left knee',
      LeftFoot: 'Left ankle',
      RightUpLeg: 'thigh.R',
      RightLeg: 'shin.R',
      RightFoot: 'foot.R',
    }) as Record<string, string>
  )[c] ?? null;

export const READY_PLAYER_ME_MORPHS: readonly string[] = [...VISEME_MORPHS, ...ARKIT_MORPHS];

export interface BuiltRig {
  root: Group;
  bones: Map<string, Bone>;
  mesh: SkinnedMesh | null;
}

export function buildRig(spec: RigSpec = {}): BuiltRig {
  const naming = spec.naming ?? plain;
  const root = new Group();
  root.name = 'Scene';
  const armature = new Object3D();
  armature.name = 'Armature';
  if (spec.facing === '-Z') armature.rotation.y = Math.PI;
  root.add(armature);
  const bones = new Map<string, Bone>();
  const layout = [...LAYOUT];
  if (spec.fingers) {
    for (const side of ['Left', 'Right'] as const) {
      const sign = side === 'Left' ? 1 : -1;
      for (const [finger, [x, y, z]] of FINGER_LAYOUT) {
        layout.push([`${side}Hand${finger}1`, `${side}Hand`, [x * sign, y, z]]);
        layout.push([`${side}Hand${finger}2`, `${side}Hand${finger}1`, [0.03 * sign, 0, 0]]);
        layout.push([`${side}Hand${finger}3`, `${side}Hand${finger}2`, [0.025 * sign, 0, 0]]);
      }
    }
  }
  for (const [canonical, parent, [x, y, z]] of layout) {
    const name = naming(canonical);
    if (name === null) continue;
    const bone = new Bone();
    bone.name = name;
    bone.position.set(x, y, z);
    const parentBone = parent ? bones.get(parent) : null;
    if (parent && !parentBone) continue;
    (parentBone ?? armature).add(bone);
    bones.set(canonical, bone);
  }
  if (spec.pose === 'A') {
    const drop = spec.aDrop ?? Math.PI / 4;
    bones.get('LeftArm')?.rotation.set(0, 0, -drop);
    bones.get('RightArm')?.rotation.set(0, 0, drop);
  }
  let mesh: SkinnedMesh | null = null;
  const list = [...bones.values()];
  if (list.length > 0) {
    const geometry = new BufferGeometry();
    const count = 4;
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(count * 3), 3));
    geometry.setAttribute('skinIndex', new BufferAttribute(new Uint16Array(count * 4), 4));
    const weights = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) weights[i * 4] = 1;
    geometry.setAttribute('skinWeight', new BufferAttribute(weights, 4));
    if (spec.morphs && spec.morphs.length > 0) {
      geometry.morphAttributes.position = spec.morphs.map((name) => {
        const attribute = new BufferAttribute(new Float32Array(count * 3), 3);
        attribute.name = name;
        return attribute;
      });
    }
    mesh = new SkinnedMesh(geometry, new MeshBasicMaterial());
    mesh.name = 'Body';
    mesh.updateMorphTargets();
    armature.add(mesh);
    root.updateMatrixWorld(true);
    mesh.bind(new Skeleton(list));
  }
  root.updateMatrixWorld(true);
  return { root, bones, mesh };
}

/** A model with no skeleton at all (a prop). */
export function buildStaticMesh(): Group {
  const root = new Group();
  root.add(new Mesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial()));
  return root;
}

/** The weight of a morph target on a mesh, by name. */
export function morphWeight(mesh: Mesh, name: string): number {
  const index = mesh.morphTargetDictionary?.[name];
  return index === undefined ? 0 : (mesh.morphTargetInfluences?.[index] ?? 0);
}
