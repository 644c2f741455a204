import { ARKIT_MORPHS, CORE_BONES, VISEME_MORPHS } from './rig.ts';
import { isMixamoName, matchBones, matchMorphs, type NamedBone } from './rig-names.ts';

/**
 * One judge of what a model can do (issue 12, issue 13 §4; SPEC.md AU-3, AU-13): the server's
 * compatibility report and the client's animation engine both ask it, so they agree on every
 * model — rig type, visemes, blinks, jaw, smile, fingers, eyes.
 */

export type RigKind = 'mixamo' | 'humanoid' | 'custom';
export type LipSyncMode = 'visemes' | 'jaw' | 'none';

/** Expression shapes the score counts (smile, frown, brows, wide eyes). */
export const EXPRESSION_MORPHS = [
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'browInnerUp',
  'browDownLeft',
  'browDownRight',
  'eyeWideLeft',
  'eyeWideRight',
] as const;

/** Share of the 16 core bones a rig must map to count as humanoid. */
export const HUMANOID_CORE_SHARE = 0.8;
/** Visemes a model needs for viseme lip sync; with fewer, the mouth opens with the jaw. */
export const MIN_VISEMES = 5;
/** Finger bones (of 30) for full finger coverage; the fingers work from half of it. */
export const FULL_FINGER_BONES = 20;

export interface RigInput {
  /** Joint names with their depth in the hierarchy. */
  bones: readonly NamedBone[];
  /** Morph target names across every mesh. */
  morphs: readonly string[];
  /** False for a model whose bones skin nothing: it counts as no skeleton. */
  skinned?: boolean;
}

export interface RigJudgement {
  rigType: RigKind;
  /** Canonical bone → the model's bone name. */
  boneMap: Map<string, string>;
  /** Canonical morph → the model's morph names that play it (stand-ins included). */
  morphMap: Map<string, string[]>;
  /** Core bones the rig lacks (all of them without a skeleton). */
  missingCoreBones: string[];
  /** Share of the core bones present, 0 without a skeleton. */
  coreCoverage: number;
  visemes: string[];
  /** Eyes that blink: 2, 1 or 0. */
  blinkingEyes: 0 | 1 | 2;
  /** How the jaw opens: a jaw bone, a jawOpen (or mouthOpen) morph, or not at all. */
  jaw: 'bone' | 'morph' | null;
  smile: boolean;
  expressions: string[];
  /** ARKit face shapes the model has (expressions, blinks, jaw and the rest). */
  faceShapes: string[];
  fingerBones: number;
  fingers: boolean;
  /** Eyes that look around: bones (both), wide-eye morphs, or none. */
  eyes: 'bones' | 'morphs' | null;
  lipSync: LipSyncMode;
  /** Whole-body gestures need a humanoid body. */
  gestures: boolean;
}

const FINGER_BONE = /Hand(Thumb|Index|Middle|Ring|Pinky)\d$/;

export function judgeRig(input: RigInput): RigJudgement {
  const skinned = (input.skinned ?? true) && input.bones.length > 0;
  const boneMap = matchBones(input.bones);
  const morphMap = matchMorphs(input.morphs);
  const missingCoreBones = skinned ? CORE_BONES.filter((b) => !boneMap.has(b)) : [...CORE_BONES];
  const coreCoverage = (CORE_BONES.length - missingCoreBones.length) / CORE_BONES.length;
  const rigType: RigKind = input.bones.some((b) => isMixamoName(b.name))
    ? 'mixamo'
    : coreCoverage >= HUMANOID_CORE_SHARE
      ? 'humanoid'
      : 'custom';
  const has = (morph: string) => morphMap.has(morph);
  const visemes = VISEME_MORPHS.filter(has);
  const jaw = boneMap.has('Jaw') ? 'bone' : has('jawOpen') ? 'morph' : null;
  const fingerBones = [...boneMap.keys()].filter((b) => FINGER_BONE.test(b)).length;
  return {
    rigType,
    boneMap,
    morphMap,
    missingCoreBones,
    coreCoverage,
    visemes,
    blinkingEyes: ((has('eyeBlinkLeft') ? 1 : 0) + (has('eyeBlinkRight') ? 1 : 0)) as 0 | 1 | 2,
    jaw,
    smile: has('mouthSmileLeft') || has('mouthSmileRight'),
    expressions: EXPRESSION_MORPHS.filter(has),
    faceShapes: ARKIT_MORPHS.filter(has),
    fingerBones,
    fingers: fingerBones >= FULL_FINGER_BONES / 2,
    eyes: boneMap.has('LeftEye') && boneMap.has('RightEye') ? 'bones' : has('eyeWideLeft') ? 'morphs' : null,
    lipSync: visemes.length >= MIN_VISEMES ? 'visemes' : jaw ? 'jaw' : 'none',
    gestures: coreCoverage >= HUMANOID_CORE_SHARE,
  };
}
