/**
 * The canonical rig (Mixamo names without a prefix; ARCHITECTURE §6) and the morph targets the
 * engine drives. How models in the wild spell them is read by rig-names.ts; what a model can do
 * is judged once, by rig-judge.ts, for the server's report and the client's engine alike.
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

/** Every bone the engine drives by name; fingers are `<Side>Hand<Finger><1..3>` (see FINGERS). */
export const CANONICAL_BONES = [
  'Hips',
  'Spine',
  'Spine1',
  'Spine2',
  'Neck',
  'Head',
  'Jaw',
  'LeftEye',
  'RightEye',
  'LeftShoulder',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  'RightShoulder',
  'RightArm',
  'RightForeArm',
  'RightHand',
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'LeftToeBase',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
  'RightToeBase',
] as const;
export type CanonicalBone = (typeof CANONICAL_BONES)[number];
export const FINGERS = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'] as const;
