/**
 * The avatar animation engine's public entry (ARCHITECTURE §6). The viewer imports only from
 * here: `createAvatarAnimator(root)` then `update(nowMs)` once per frame.
 */
export * from './contract';
export {
  createAvatarAnimator,
  MIN_FRAME_INTERVAL_MS,
  type AvatarAnimatorExtras,
  type FullAvatarAnimator,
} from './animator';
export { computeFrame } from './compute';
export type { FramePool, FrameResult, FrameState } from './frame';
export {
  createAnimationPool,
  getSharedAnimationPool,
  type AnimationPool,
  type PoolStats,
  type WorkerLike,
} from './pool';
export { analyseRig, restOffsets } from './rig';
