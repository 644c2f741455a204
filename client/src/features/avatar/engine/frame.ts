/**
 * The serialisable data of the pure core: `computeFrame(state, tMs)` reads a `FrameState` and
 * returns a `FrameResult`. Plain objects and arrays only, so both cross `postMessage` to a worker.
 */
import type { Gesture } from '@alma/protocol';
import type { AvatarEmotion } from './contract';
import type { Vec3 } from './math';

/** What computeFrame needs to know about the model (from rig.ts). */
export interface RigProfile {
  /** Canonical bones present in the model. */
  bones: string[];
  /**
   * Per canonical bone, the rotation (canonical frame, XYZ euler) from the canonical T-pose to
   * the model's rest pose; zero for most bones, the arm drop for A-pose models.
   */
  corrections: Record<string, Vec3>;
  /** Canonical morph names the model has (viseme_*, ARKit names). */
  morphs: string[];
  hasVisemes: boolean;
  hasJawBone: boolean;
}

/** Speaking: a 0.3 s blend in; on stop, a hold then the 0.8 s cubic return. */
export interface SpeakingTiming {
  /** When speech started (null when not speaking). */
  sinceMs: number | null;
  /** The layer weight when the last change happened, the blend starts from it. */
  fromWeight: number;
  /** When speech stopped, and when its return to the base pose starts (null until scheduled). */
  stoppedMs: number | null;
  returnStartMs: number | null;
}

export interface GestureTiming {
  gesture: Gesture;
  startMs: number;
  /** start + duration + tail (spec §4: an intent lasts its duration plus 1 s). */
  endMs: number;
  /** When its return starts (null until the scheduler gives it a slot). */
  returnStartMs: number | null;
}

export interface EmotionTiming {
  emotion: AvatarEmotion;
  intensity: number;
  previous: AvatarEmotion;
  previousIntensity: number;
  changedMs: number;
}

export interface FrameState {
  rig: RigProfile;
  /** Seed of the idle motion (blinks, saccades), stable per avatar. */
  seed: number;
  speaking: SpeakingTiming;
  /** Smoothed viseme weights by short name (`aa`, `PP`, …), from the mouth smoother. */
  mouth: Record<string, number>;
  /** Audio envelope 0–1 for chunks without visemes. */
  level: number;
  emotion: EmotionTiming;
  /** The current gesture last; an older one may still be fading out. */
  gestures: GestureTiming[];
  /** Gaze target as yaw / pitch (rad, canonical frame) relative to the head; null = forward. */
  gaze: [number, number] | null;
  overrides: { viseme: string | null; emotion: AvatarEmotion | null; still: boolean };
}

export interface FrameResult {
  /** Canonical bone → XYZ euler offset (rad) in the canonical frame, relative to the model's rest. */
  bones: Record<string, Vec3>;
  /** Canonical morph name → weight 0–1. */
  morphs: Record<string, number>;
  /** Hips lowered by this fraction of their rest height (kneeling); absent when 0. */
  hipsDrop?: number;
}

/** What the animator needs of a pool (pool.ts): computes a frame somewhere, never rejects. */
export interface FramePool {
  compute(key: string, state: FrameState, tMs: number): Promise<FrameResult>;
  /** The avatar is gone: forget its cached frame. */
  release?(key: string): void;
}
