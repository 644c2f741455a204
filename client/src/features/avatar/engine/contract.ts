import type { Emotion, Gesture } from '@alma/protocol';
import type { Object3D } from 'three';
import type { FramePool } from './frame';

/**
 * The contract between the animation engine (this folder, plain TypeScript, no React) and the
 * viewer (features/avatar/viewer, react-three-fiber). The viewer loads a glTF, hands its scene to
 * `createAvatarAnimator` and calls `update` once per rendered frame; it never touches bones or
 * morph targets itself. Everything the engine needs from the rest of the app comes in through
 * the setters below.
 */

/** Canonical bones: Mixamo names without a prefix (ARCHITECTURE §6), declared in the protocol. */
export { CANONICAL_BONES, FINGERS, type CanonicalBone } from '@alma/protocol';

/** Morph target names (shared with the server's forge and upload inspection). */
export { VISEME_MORPHS } from '@alma/protocol';

export { ARKIT_MORPHS } from '@alma/protocol';

/** The emotions the avatar shows: the protocol's, `surprised` included (SPEC C-17). */
export type AvatarEmotion = Emotion;

export type RigType = 'humanoid' | 'mixamo' | 'custom';
export type BasePose = 'T' | 'A' | 'unknown';

/** What the engine found in a model; what it lacks is listed, never crashed on. */
export interface RigReport {
  rigType: RigType;
  basePose: BasePose;
  /** The model's forward axis after normalisation, +Z for glTF-conformant models. */
  facing: '+Z' | '-Z' | '+X' | '-X';
  /** Canonical name → the model's node name. */
  boneMap: Partial<Record<string, string>>;
  missingBones: string[];
  visemes: string[];
  missingVisemes: string[];
  hasBlink: boolean;
  hasFingers: boolean;
  hasFaceShapes: boolean;
  warnings: string[];
}

/** Where the mouth is now: the speech queue's `getMouthState` (chat/audio/queue.ts). */
export interface MouthSource {
  getMouthState(): { viseme: string; weight: number };
  /** Optional audio envelope 0–1, used when a chunk carries no visemes. */
  getLevel?(): number;
  /**
   * Optional, for coarticulation: the current viseme, the next one and `blend` 0–1 toward it
   * (1 at its onset). The speech queue's `getMouthFrame` fits.
   */
  getMouthFrame?(): {
    viseme: string;
    weight: number;
    next?: string | null;
    nextWeight?: number;
    blend?: number;
  };
}

/** Test and preview overrides: hold a viseme or an emotion, stop idle motion for stable shots. */
export interface AnimatorOverrides {
  viseme?: string | null;
  emotion?: AvatarEmotion | null;
  /** Freeze breathing, blinks and saccades (screenshots). */
  still?: boolean;
}

export interface AvatarAnimator {
  readonly report: RigReport;
  setMouthSource(source: MouthSource | null): void;
  /** Speaking (speech audible or reply streaming) blends idle ↔ speaking over 0.3 s. */
  setSpeaking(speaking: boolean): void;
  setEmotion(emotion: AvatarEmotion, intensity?: number): void;
  /**
   * Plays one of the twelve gestures; it lasts `durationMs` (default 3 s) + 1 s. `startInMs`
   * delays it (an intent's `atMs` on the speech timeline, less what has already played).
   */
  playGesture(gesture: Gesture, durationMs?: number, startInMs?: number): void;
  setOverrides(overrides: AnimatorOverrides): void;
  /** Called by the viewer once per frame; `nowMs` is a monotonic clock (tests pass a fake one). */
  update(nowMs: number): void;
  dispose(): void;
}

export interface AnimatorOptions {
  /**
   * Off-thread computation (the worker pool, `getSharedAnimationPool()`): absent → the page's
   * shared worker pool (in-page where Worker is missing); null → always in-page, synchronous.
   */
  pool?: FramePool | null;
  /** Seed of the idle motion (blinks, saccades); random when absent. */
  seed?: number;
}

export type CreateAvatarAnimator = (root: Object3D, options?: AnimatorOptions) => AvatarAnimator;
