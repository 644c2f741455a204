import { describe, expect, it } from 'vitest';
import { canonicalBoneName, isMixamoName, mapBones } from './rig.ts';

describe('canonicalBoneName', () => {
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
    ['upper_arm.L', 'LeftArm'],
    ['thigh_r', 'RightUpLeg'],
    ['leftUpperArm', 'LeftArm'],
    ['Left arm', 'LeftArm'],
    ['forearm_R', 'RightForeArm'],
    ['Head', 'Head'],
    ['jaw', 'Jaw'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalBoneName(raw)).toBe(canonical);
  });

  it.each(['Armature', 'Tail1', 'HairBone_03', 'Arm', 'LeftHips'])('%s is not a canonical bone', (raw) => {
    expect(canonicalBoneName(raw)).toBeNull();
  });

  it('recognises Mixamo exports by their prefix', () => {
    expect(isMixamoName('mixamorig:Hips')).toBe(true);
    expect(isMixamoName('Hips')).toBe(false);
  });

  it('maps a list, the first spelling winning', () => {
    expect(mapBones(['Armature', 'Hips', 'hips', 'LeftArm']).get('Hips')).toBe('Hips');
  });
});
