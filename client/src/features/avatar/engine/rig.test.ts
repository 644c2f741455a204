import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { CANONICAL_BONES, VISEME_MORPHS } from './contract';
import { analyseRig, applyBoneOffset, IDLE_ARM_DROP, restOffsets } from './rig';
import {
  buildRig,
  buildStaticMesh,
  mixamoColon,
  mixamoStripped,
  mixamoUnderscore,
  oddNames,
  READY_PLAYER_ME_MORPHS,
  vrm,
  type RigSpec,
} from './testing/rigs';

/** Drop of the left upper arm below horizontal (rad), measured in the root's space. */
function leftArmDrop(
  bones: ReturnType<typeof buildRig>['bones'],
  root: ReturnType<typeof buildRig>['root'],
): number {
  root.updateMatrixWorld(true);
  const arm = bones.get('LeftArm')?.getWorldPosition(new Vector3()) ?? new Vector3();
  const fore = bones.get('LeftForeArm')?.getWorldPosition(new Vector3()) ?? new Vector3();
  const dir = fore.sub(arm);
  return Math.atan2(-dir.y, Math.hypot(dir.x, dir.z));
}

describe('rig normalisation: bone maps', () => {
  it.each([
    ['mixamorig:Hips', mixamoColon],
    ['mixamorigHips (GLTFLoader strips the colon)', mixamoStripped],
    ['mixamorig_Hips', mixamoUnderscore],
  ])('maps a %s rig as mixamo', (_label, naming) => {
    const { root } = buildRig({ naming });
    const { report } = analyseRig(root);
    expect(report.rigType).toBe('mixamo');
    expect(report.boneMap.Hips).toBe(naming('Hips'));
    expect(report.boneMap.LeftForeArm).toBe(naming('LeftForeArm'));
    expect(report.missingBones).toEqual([]);
  });

  it('maps Ready Player Me (plain Mixamo) names as humanoid (AU-3: mixamo is the prefix) and finds visemes, blink and ARKit shapes on the SkinnedMesh', () => {
    const { root } = buildRig({ morphs: READY_PLAYER_ME_MORPHS, fingers: true });
    const { report } = analyseRig(root);
    expect(report.rigType).toBe('humanoid');
    expect(report.boneMap.LeftHand).toBe('LeftHand');
    expect(report.visemes).toEqual([...VISEME_MORPHS]);
    expect(report.missingVisemes).toEqual([]);
    expect(report.hasBlink).toBe(true);
    expect(report.hasFaceShapes).toBe(true);
    expect(report.hasFingers).toBe(true);
    expect(report.boneMap.LeftHandIndex2).toBe('LeftHandIndex2');
  });

  it('maps VRM (J_Bip_*) names as humanoid', () => {
    const { root } = buildRig({ naming: vrm });
    const { report } = analyseRig(root);
    expect(report.rigType).toBe('humanoid');
    expect(report.boneMap.Spine1).toBe('J_Bip_C_Chest');
    expect(report.boneMap.RightForeArm).toBe('J_Bip_R_LowerArm');
    expect(report.boneMap.LeftEye).toBe('J_Adj_L_FaceEye');
  });

  it('maps odd names ("Left arm", upperarm_r, thigh.R, "Left knee") by fuzzy tokens', () => {
    const { root } = buildRig({ naming: oddNames });
    const { report } = analyseRig(root);
    expect(report.boneMap).toMatchObject({
      Hips: 'pelvis',
      Spine: 'spine_01',
      Spine1: 'spine_02',
      Spine2: 'chest',
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
    });
    expect(report.rigType).toBe('humanoid');
    expect(report.missingBones).toContain('Jaw');
  });

  it('reports a rig without face morphs instead of failing', () => {
    const { root } = buildRig({ naming: (c) => (c === 'Jaw' ? null : c) });
    const { report, profile } = analyseRig(root);
    expect(report.visemes).toEqual([]);
    expect(report.missingVisemes).toHaveLength(15);
    expect(report.hasBlink).toBe(false);
    expect(report.hasFaceShapes).toBe(false);
    expect(report.missingBones).toEqual(['Jaw']);
    expect(report.warnings.join(' ')).toMatch(/no lip-sync/);
    expect(profile.hasVisemes).toBe(false);
  });

  it('reports a non-humanoid mesh as custom with every bone missing', () => {
    const { report } = analyseRig(buildStaticMesh());
    expect(report.rigType).toBe('custom');
    expect(report.basePose).toBe('unknown');
    expect(report.missingBones).toEqual([...CANONICAL_BONES]);
    expect(report.warnings.join(' ')).toMatch(/no bones/);
  });
});

describe('rig normalisation: base pose and facing', () => {
  it('detects a T-pose from the upper arm at rest', () => {
    const { report } = analyseRig(buildRig({ naming: mixamoColon }).root);
    expect(report.basePose).toBe('T');
    expect(report.facing).toBe('+Z');
  });

  it('detects an A-pose and gives rest offsets that bring the arms to the idle drop', () => {
    const { report, profile } = analyseRig(buildRig({ naming: mixamoStripped, pose: 'A' }).root);
    expect(report.basePose).toBe('A');
    const offsets = restOffsets(profile);
    expect(offsets.LeftArm?.[2]).toBeCloseTo(Math.PI / 4 - IDLE_ARM_DROP, 5);
    expect(offsets.RightArm?.[2]).toBeCloseTo(IDLE_ARM_DROP - Math.PI / 4, 5);
    const t = restOffsets(analyseRig(buildRig().root).profile);
    expect(t.LeftArm?.[2]).toBeCloseTo(-IDLE_ARM_DROP, 5);
  });

  it.each<[string, RigSpec]>([
    ['T, facing +Z', { pose: 'T' }],
    ['A, facing +Z', { pose: 'A' }],
    ['T, facing -Z', { pose: 'T', facing: '-Z' }],
    ['A 57°, facing -Z', { pose: 'A', aDrop: 1.0, facing: '-Z' }],
  ])('the rest offsets hang the arms at the idle drop whatever the rest pose (%s)', (_label, spec) => {
    const { root, bones } = buildRig(spec);
    const analysis = analyseRig(root);
    expect(analysis.report.facing).toBe(spec.facing ?? '+Z');
    const offsets = restOffsets(analysis.profile);
    for (const [name, binding] of analysis.bones) applyBoneOffset(binding, offsets[name]);
    expect(leftArmDrop(bones, root)).toBeCloseTo(IDLE_ARM_DROP, 3);
  });
});
