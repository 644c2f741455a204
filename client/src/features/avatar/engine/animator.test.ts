import { ANIMATION_MAX_UPDATES_PER_SECOND } from '@alma/protocol';
import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { createAvatarAnimator } from './animator';
import { buildRig, buildStaticMesh, mixamoColon, morphWeight, READY_PLAYER_ME_MORPHS } from './testing/rigs';

const FRAME = 1000 / 60;

function worldY(bones: Map<string, { getWorldPosition(v: Vector3): Vector3 }>, name: string): number {
  return bones.get(name)?.getWorldPosition(new Vector3()).y ?? NaN;
}

describe('avatar animator', () => {
  it.each([
    ['T-pose facing +Z', {}],
    ['A-pose facing +Z', { pose: 'A' as const }],
    ['T-pose facing -Z', { facing: '-Z' as const }],
    ['A-pose facing -Z, mixamorig:', { pose: 'A' as const, facing: '-Z' as const, naming: mixamoColon }],
  ])('hangs the arms at rest and raises both hands above the head in a celebration (%s)', (_l, spec) => {
    const { root, bones } = buildRig(spec);
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.update(0);
    root.updateMatrixWorld(true);
    expect(worldY(bones, 'LeftHand')).toBeLessThan(worldY(bones, 'LeftArm') - 0.3);
    expect(worldY(bones, 'RightHand')).toBeLessThan(worldY(bones, 'RightArm') - 0.3);
    animator.playGesture('celebration');
    for (let t = 0; t <= 1000; t += FRAME) animator.update(t);
    root.updateMatrixWorld(true);
    expect(worldY(bones, 'LeftHand')).toBeGreaterThan(worldY(bones, 'Head'));
    expect(worldY(bones, 'RightHand')).toBeGreaterThan(worldY(bones, 'Head'));
  });

  it('waves with the right hand, on the character’s right whichever way it faces', () => {
    for (const facing of ['+Z', '-Z'] as const) {
      const { root, bones } = buildRig({ facing });
      const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
      animator.update(0);
      animator.playGesture('greeting');
      for (let t = 0; t <= 1000; t += FRAME) animator.update(t);
      root.updateMatrixWorld(true);
      expect(worldY(bones, 'RightHand'), facing).toBeGreaterThan(worldY(bones, 'RightArm'));
      expect(worldY(bones, 'LeftHand'), facing).toBeLessThan(worldY(bones, 'LeftArm'));
    }
  });

  it('lowers the hips while kneeling', () => {
    const { root, bones } = buildRig();
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.update(0);
    root.updateMatrixWorld(true);
    const standing = worldY(bones, 'Hips');
    animator.playGesture('kneeling');
    for (let t = 0; t <= 2000; t += FRAME) animator.update(t);
    root.updateMatrixWorld(true);
    expect(worldY(bones, 'Hips')).toBeLessThan(standing - 0.15);
  });

  it('drives viseme and ARKit morphs on a Ready Player Me mesh; overrides hold a viseme, an emotion, stillness', () => {
    const { root, mesh } = buildRig({ morphs: READY_PLAYER_ME_MORPHS });
    if (!mesh) throw new Error('no mesh');
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.setOverrides({ viseme: 'viseme_O', emotion: 'surprised', still: true });
    animator.update(0);
    expect(morphWeight(mesh, 'viseme_O')).toBe(1);
    expect(morphWeight(mesh, 'viseme_aa')).toBe(0);
    expect(morphWeight(mesh, 'eyeWideLeft')).toBeCloseTo(0.8, 5);
    const frozen = animator.lastFrame;
    animator.update(1234);
    expect(animator.lastFrame).toEqual(frozen);
    animator.setOverrides({ viseme: null, emotion: null, still: false });
    animator.update(1300);
    expect(morphWeight(mesh, 'viseme_O')).toBe(0);
    expect(morphWeight(mesh, 'eyeWideLeft')).toBe(0);
  });

  it('blends to a new emotion set from chat events', () => {
    const { root, mesh } = buildRig({ morphs: READY_PLAYER_ME_MORPHS });
    if (!mesh) throw new Error('no mesh');
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.update(0);
    animator.setEmotion('sad', 1);
    animator.update(20);
    const early = morphWeight(mesh, 'mouthFrownLeft');
    for (let t = 20; t <= 1000; t += FRAME) animator.update(t);
    expect(early).toBeLessThan(0.1);
    expect(morphWeight(mesh, 'mouthFrownLeft')).toBeCloseTo(0.6, 5);
  });

  it(`computes at most ${ANIMATION_MAX_UPDATES_PER_SECOND} frames per second`, () => {
    const { root } = buildRig();
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    const frames = new Set<unknown>();
    for (let t = 0; t <= 1000; t += 4) {
      animator.update(t);
      frames.add(animator.lastFrame);
    }
    // t = 0 and t = 1000 both count: one second holds 61 frame instants.
    expect(frames.size).toBeLessThanOrEqual(ANIMATION_MAX_UPDATES_PER_SECOND + 1);
    expect(frames.size).toBeGreaterThan(ANIMATION_MAX_UPDATES_PER_SECOND * 0.9);
  });

  it('animates a model without a skeleton or face without throwing', () => {
    const root = buildStaticMesh();
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.setSpeaking(true);
    animator.setEmotion('happy');
    animator.playGesture('clapping');
    animator.setMouthSource({ getMouthState: () => ({ viseme: 'aa', weight: 1 }) });
    for (let t = 0; t < 500; t += FRAME) animator.update(t);
    expect(animator.report.rigType).toBe('custom');
    expect(animator.lastFrame?.bones).toEqual({});
  });

  it('dispose puts the model back at rest', () => {
    const { root, bones, mesh } = buildRig({ morphs: READY_PLAYER_ME_MORPHS });
    const rest = bones.get('LeftArm')?.quaternion.clone();
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.setOverrides({ viseme: 'aa' });
    animator.update(0);
    expect(bones.get('LeftArm')?.quaternion.equals(rest ?? bones.get('LeftArm')!.quaternion)).toBe(false);
    animator.dispose();
    expect(bones.get('LeftArm')?.quaternion.equals(rest!)).toBe(true);
    expect(mesh && morphWeight(mesh, 'viseme_aa')).toBe(0);
  });

  it('looks at a target given in world space', () => {
    const { root } = buildRig();
    const animator = createAvatarAnimator(root, { pool: null, seed: 2 });
    animator.setOverrides({ still: true });
    animator.update(0);
    const ahead = animator.lastFrame?.bones.Head?.[1] ?? 0;
    animator.lookAt({ x: 2, y: 1.6, z: 2 });
    animator.update(100);
    expect((animator.lastFrame?.bones.Head?.[1] ?? 0) - ahead).toBeGreaterThan(0.1);
  });
});
