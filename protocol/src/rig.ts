/**
 * Bone names, as models in the wild spell them, mapped to the canonical rig (Mixamo names without
 * a prefix; ARCHITECTURE §6). Shared by the server's upload inspection and the client's engine so
 * that both read a model the same way.
 */

/** The 15 Oculus visemes by short name, in their canonical order. */
export const VISEME_NAMES = [
  'sil',
  'PP',
  'FF',
  'TH',
  'DD',
  'kk',
  'CH',
  'SS',
  'nn',
  'RR',
  'aa',
  'E',
  'I',
  'O',
  'U',
] as const;
export type VisemeName = (typeof VISEME_NAMES)[number];

/** The visemes as morph target names (Ready Player Me convention; ARCHITECTURE §6). */
export const VISEME_MORPHS: readonly `viseme_${VisemeName}`[] = VISEME_NAMES.map(
  (v) => `viseme_${v}` as const,
);

/** The ARKit face shapes every system avatar carries and the engine drives when a model has them. */
export const ARKIT_MORPHS = [
  'eyeBlinkLeft',
  'eyeBlinkRight',
  'eyeWideLeft',
  'eyeWideRight',
  'eyeSquintLeft',
  'eyeSquintRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'browInnerUp',
  'browDownLeft',
  'browDownRight',
  'browOuterUpLeft',
  'browOuterUpRight',
  'jawOpen',
  'mouthOpen',
  'mouthPucker',
] as const;

/** The bones a humanoid needs for the body to animate; the rest (fingers, eyes, jaw) are extras. */
export const CORE_BONES = [
  'Hips',
  'Spine',
  'Neck',
  'Head',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  'RightArm',
  'RightForeArm',
  'RightHand',
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
] as const;

const FINGER = /^(Left|Right)Hand(Thumb|Index|Middle|Ring|Pinky)[1-4]$/;
const MIXAMO_PREFIX = /^mixamorig\d*[:_]?/i;

/** Part names after the side is taken out, lower-case and without separators → canonical part. */
const PARTS: Record<string, string> = {
  hips: 'Hips',
  pelvis: 'Hips',
  root: 'Hips',
  spine: 'Spine',
  spine1: 'Spine1',
  chest: 'Spine1',
  spine2: 'Spine2',
  upperchest: 'Spine2',
  neck: 'Neck',
  head: 'Head',
  jaw: 'Jaw',
  eye: 'Eye',
  shoulder: 'Shoulder',
  clavicle: 'Shoulder',
  arm: 'Arm',
  upperarm: 'Arm',
  forearm: 'ForeArm',
  lowerarm: 'ForeArm',
  elbow: 'ForeArm',
  hand: 'Hand',
  wrist: 'Hand',
  upleg: 'UpLeg',
  upperleg: 'UpLeg',
  thigh: 'UpLeg',
  leg: 'Leg',
  lowerleg: 'Leg',
  shin: 'Leg',
  calf: 'Leg',
  knee: 'Leg',
  foot: 'Foot',
  ankle: 'Foot',
  toebase: 'ToeBase',
  toe: 'ToeBase',
  toes: 'ToeBase',
};
const SIDED = new Set(['Eye', 'Shoulder', 'Arm', 'ForeArm', 'Hand', 'UpLeg', 'Leg', 'Foot', 'ToeBase']);

/** True when the model was exported from Mixamo (its bones carry the `mixamorig` prefix). */
export const isMixamoName = (name: string): boolean => MIXAMO_PREFIX.test(name);

/**
 * The canonical name for a bone name, or null when it is not one we know. Handles Mixamo
 * (`mixamorig:LeftArm`, `mixamorigLeftArm` as three.js sanitises it), Ready Player Me (`LeftArm`),
 * VRM exports (`J_Bip_L_UpperArm`), Blender/Rigify style (`upper_arm.L`, `thigh_l`) and plain
 * humanoid names (`leftUpperArm`, `Left arm`).
 */
export function canonicalBoneName(raw: string): string | null {
  // VRM (`J_Bip_L_UpperArm`, `J_Bip_C_Hips`): drop the prefix and the centre marker first.
  const name = raw.replace(MIXAMO_PREFIX, '').replace(/^J_Bip_(C_)?/i, '');
  if (FINGER.test(name)) return name;
  let side: 'Left' | 'Right' | null = null;
  let rest = name;
  const sided: [RegExp, 'Left' | 'Right'][] = [
    [/^left[\s_.-]?/i, 'Left'],
    [/^right[\s_.-]?/i, 'Right'],
    [/[\s_.-]left$/i, 'Left'],
    [/[\s_.-]right$/i, 'Right'],
    [/(^|_)L_/, 'Left'],
    [/(^|_)R_/, 'Right'],
    [/[._]L$/, 'Left'],
    [/[._]R$/, 'Right'],
    [/[._]l$/, 'Left'],
    [/[._]r$/, 'Right'],
  ];
  for (const [pattern, s] of sided) {
    if (pattern.test(rest)) {
      side = s;
      rest = rest.replace(pattern, '_');
      break;
    }
  }
  const key = rest
    .replace(/^(bip0?1|def|org)[\s_.-]*/i, '')
    .replace(/[\s_.-]/g, '')
    .toLowerCase();
  const part = PARTS[key];
  if (!part) return null;
  if (SIDED.has(part)) return side ? `${side}${part}` : null;
  return side ? null : part;
}

/** Canonical name → the model's own name, first match wins. */
export function mapBones(names: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const n of names) {
    const c = canonicalBoneName(n);
    if (c && !map.has(c)) map.set(c, n);
  }
  return map;
}
