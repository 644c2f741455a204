import { describe, expect, it } from 'vitest';
import { judgeRig } from './rig-judge.ts';
import { isMixamoName, matchBones, matchMorphs } from './rig-names.ts';

/** The canonical name the matcher gives one bone on its own, or null. */
const canonicalOf = (name: string): string | null =>
  [...matchBones([{ name, depth: 0 }])].find(([, n]) => n === name)?.[0] ?? null;

describe('the bone matcher (AU-13)', () => {
  it.each([
    ['mixamorig:LeftArm', 'LeftArm'],
    ['mixamorigLeftArm', 'LeftArm'],
    ['mixamorig_RightUpLeg', 'RightUpLeg'],
    ['mixamorig1:Hips', 'Hips'],
    ['LeftHandIndex2', 'LeftHandIndex2'],
    ['Spine2', 'Spine2'],
    ['J_Bip_L_UpperArm', 'LeftArm'],
    ['J_Bip_R_LowerLeg', 'RightLeg'],
    ['J_Bip_C_Hips', 'Hips'],
    ['J_Bip_L_Thumb1', 'LeftHandThumb1'],
    ['J_Bip_R_Little3', 'RightHandPinky3'],
    ['thumb_proximal.L', 'LeftHandThumb1'],
    ['index_distal.R', 'RightHandIndex3'],
    ['leftMiddleIntermediate', 'LeftHandMiddle2'],
    ['upper_arm.L', 'LeftArm'],
    ['thigh_r', 'RightUpLeg'],
    ['leftUpperArm', 'LeftArm'],
    ['Left arm', 'LeftArm'],
    ['forearm_R', 'RightForeArm'],
    ['Head', 'Head'],
    ['jaw', 'Jaw'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalOf(raw)).toBe(canonical);
  });

  it.each(['Armature', 'Tail1', 'HairBone_03', 'Arm', 'LeftHips'])('%s is not a canonical bone', (raw) => {
    expect(canonicalOf(raw)).toBeNull();
  });

  it('recognises Mixamo exports by their prefix', () => {
    expect(isMixamoName('mixamorig:Hips')).toBe(true);
    expect(isMixamoName('Hips')).toBe(false);
  });

  it('maps a list, the first spelling winning, and a spine chain by depth', () => {
    const map = matchBones([
      { name: 'Armature', depth: 0 },
      { name: 'pelvis', depth: 1 },
      { name: 'spine_03', depth: 4 },
      { name: 'spine_01', depth: 2 },
      { name: 'spine_02', depth: 3 },
      { name: 'Hips', depth: 1 },
    ]);
    expect(map.get('Hips')).toBe('Hips');
    expect([map.get('Spine'), map.get('Spine1'), map.get('Spine2')]).toEqual([
      'spine_01',
      'spine_02',
      'spine_03',
    ]);
  });
});

describe('the morph matcher (AU-13)', () => {
  it('reads Face Cap `_L`/`_R` suffixes as each eye’s blink', () => {
    const morphs = matchMorphs(['eyeBlink_L', 'eyeBlink_R']);
    expect(morphs.get('eyeBlinkLeft')).toEqual(['eyeBlink_L']);
    expect(morphs.get('eyeBlinkRight')).toEqual(['eyeBlink_R']);
  });

  it("lets Ready Player Me's mouthOpen open the jaw and mouthSmile smile on both sides", () => {
    const morphs = matchMorphs(['mouthOpen', 'mouthSmile']);
    expect(morphs.get('jawOpen')).toEqual(['mouthOpen']);
    expect(morphs.get('mouthSmileLeft')).toEqual(['mouthSmile']);
    expect(morphs.get('mouthSmileRight')).toEqual(['mouthSmile']);
  });

  it('keeps a model’s own shapes over stand-ins', () => {
    const morphs = matchMorphs([
      'jawOpen',
      'mouthOpen',
      'mouthSmile',
      'mouthSmileLeft',
      'Blink',
      'eyeBlinkLeft',
    ]);
    expect(morphs.get('jawOpen')).toEqual(['jawOpen']);
    expect(morphs.get('mouthSmileLeft')).toEqual(['mouthSmileLeft']);
    expect(morphs.get('mouthSmileRight')).toEqual(['mouthSmile']);
    expect(morphs.get('eyeBlinkLeft')).toEqual(['eyeBlinkLeft']);
    expect(morphs.get('eyeBlinkRight')).toEqual(['Blink']);
  });

  it('reads VRM Fcl_ names as visemes and a closing of both eyes', () => {
    const morphs = matchMorphs(['Fcl_MTH_A', 'Fcl_MTH_I', 'Fcl_EYE_Close']);
    expect(morphs.get('viseme_aa')).toEqual(['Fcl_MTH_A']);
    expect(morphs.get('viseme_I')).toEqual(['Fcl_MTH_I']);
    expect(morphs.get('eyeBlinkLeft')).toEqual(['Fcl_EYE_Close']);
    expect(morphs.get('eyeBlinkRight')).toEqual(['Fcl_EYE_Close']);
  });
});

describe('the judge (AU-13)', () => {
  it('a model without a skeleton is custom with every core bone missing, whatever its names', () => {
    const judged = judgeRig({ bones: [{ name: 'Hips', depth: 0 }], morphs: ['jawOpen'], skinned: false });
    expect(judged).toMatchObject({ rigType: 'custom', coreCoverage: 0, gestures: false, jaw: 'morph' });
    expect(judged.missingCoreBones).toHaveLength(16);
  });

  it('lip sync needs five visemes; with fewer the jaw opens the mouth', () => {
    const few = judgeRig({ bones: [], morphs: ['viseme_aa', 'viseme_O', 'mouthOpen'] });
    expect(few).toMatchObject({ lipSync: 'jaw', jaw: 'morph' });
    expect(few.visemes).toEqual(['viseme_aa', 'viseme_O']);
    expect(judgeRig({ bones: [], morphs: [] }).lipSync).toBe('none');
  });
});
