/**
 * The base pose: a relaxed stance in the canonical frame (+X the character's left, +Y up, +Z
 * forward), as rotations from the canonical T-pose. The arm drop is rig.ts's IDLE_ARM_DROP.
 *
 * The weight rests on the right leg: the hips tip down on the left (`WEIGHT_SHIFT`), both
 * thighs turn back to vertical, the spine curves back to upright above them (a soft S), and the
 * free left leg eases its knee so its foot still meets the floor.
 */
import type { Vec3 } from '../math';
import { IDLE_ARM_DROP } from '../rig';

/** How far (rad) the hips tip towards the free leg at rest. */
export const WEIGHT_SHIFT = 0.045;
const free = 0.07;

export const BASE_POSE: Readonly<Record<string, Readonly<Vec3>>> = {
  Hips: [0, 0.03, -WEIGHT_SHIFT],
  Spine: [0, -0.015, WEIGHT_SHIFT * 0.6],
  Spine1: [0, -0.01, WEIGHT_SHIFT * 0.4],
  Neck: [0, 0, WEIGHT_SHIFT * 0.3],
  Head: [0, 0, -WEIGHT_SHIFT * 0.4],
  LeftUpLeg: [-free, 0, WEIGHT_SHIFT],
  LeftLeg: [free * 2, 0, 0],
  LeftFoot: [-free, 0, 0],
  RightUpLeg: [0, 0, WEIGHT_SHIFT],
  LeftArm: [0.06, 0, -IDLE_ARM_DROP],
  RightArm: [0.04, 0, IDLE_ARM_DROP],
  LeftForeArm: [0, -0.24, 0],
  RightForeArm: [0, 0.2, 0],
  LeftHand: [0, 0, -0.08],
  RightHand: [0, 0, 0.08],
};
