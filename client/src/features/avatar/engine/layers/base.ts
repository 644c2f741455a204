/**
 * The base pose: a relaxed stance in the canonical frame (+X the character's left, +Y up, +Z
 * forward), as rotations from the canonical T-pose. The arm drop is rig.ts's IDLE_ARM_DROP.
 */
import type { Vec3 } from '../math';
import { IDLE_ARM_DROP } from '../rig';

export const BASE_POSE: Readonly<Record<string, Readonly<Vec3>>> = {
  LeftArm: [0.05, 0, -IDLE_ARM_DROP],
  RightArm: [0.05, 0, IDLE_ARM_DROP],
  LeftForeArm: [0, -0.18, 0],
  RightForeArm: [0, 0.18, 0],
  LeftHand: [0, 0, -0.08],
  RightHand: [0, 0, 0.08],
};
