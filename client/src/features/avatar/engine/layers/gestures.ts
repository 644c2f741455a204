/**
 * The twelve gestures of spec §4 as procedural clips on canonical bones: keyframed poses over the
 * intent's span (its duration plus the 1 s tail, u = 0 → 1), plus oscillators for waves, nods
 * and claps. Poses are rotations relative to the base pose, in the canonical frame (+x bends
 * forward / swings an arm forward, +z raises the left arm, −z the right one; ±y turns).
 * The last key is held until the layer's return to the base pose.
 */
import type { Gesture } from '@alma/protocol';
import type { GestureTiming } from '../frame';
import type { Vec3 } from '../math';
import { clamp01, smoothstep } from '../math';

type Pose = Readonly<Record<string, Readonly<Vec3>>>;

interface Wave {
  bone: string;
  axis: 0 | 1 | 2;
  amp: number;
  hz: number;
  /** Active span in u; fades over 10% of the span at each end. */
  from?: number;
  to?: number;
}

export interface GestureClip {
  keys: readonly (readonly [number, Pose])[];
  waves?: readonly Wave[];
  face?: Readonly<Record<string, number>>;
  /** Hips lowered by this fraction of their rest height (kneeling). */
  hipsDrop?: number;
}

const FOUR_FINGERS = ['Index', 'Middle', 'Ring', 'Pinky'] as const;

/**
 * Finger poses, relative to the model's own resting hand. `curl` (rad per joint) bends the four
 * fingers towards the palm of the canonical T-pose (palm down: −z on the left, +z on the right);
 * a negative curl opens the hand. The thumb folds across the palm by `thumb`. Rigs without
 * finger bones ignore these.
 */
function hand(side: 'Left' | 'Right', curl: number, thumb = curl * 0.6, index = curl): Pose {
  const s = side === 'Left' ? 1 : -1;
  const pose: Record<string, Vec3> = {};
  for (const finger of FOUR_FINGERS)
    for (const n of [1, 2, 3])
      pose[`${side}Hand${finger}${n}`] = [0, 0, -(finger === 'Index' ? index : curl) * s];
  // The thumb turns about an axis across the base of the palm (towards the little finger).
  for (const n of [1, 2, 3])
    pose[`${side}HandThumb${n}`] = [-0.55 * s * thumb, -0.5 * thumb, 0.25 * s * thumb];
  return pose;
}
const hands = (curl: number, thumb?: number): Pose => ({
  ...hand('Left', curl, thumb),
  ...hand('Right', curl, thumb),
});

const wave: Pose = {
  RightArm: [0, 0.35, -1.45],
  RightForeArm: [0, 0.2, -1.2],
  RightHand: [0, 0, -0.1],
  Head: [0, -0.06, -0.05],
  ...hand('Right', -0.22, -0.1),
};

const thinking: Pose = {
  RightArm: [-0.3, 0, -0.45],
  RightForeArm: [0, 1.75, -0.3],
  RightHand: [0.3, 0, 0],
  LeftArm: [-0.35, 0, 0.1],
  LeftForeArm: [0, -1.3, 0],
  Head: [0.1, 0.12, 0.1],
  LeftEye: [-0.15, 0.1, 0],
  RightEye: [-0.15, 0.1, 0],
  ...hand('Right', 0.95, 0.5, 0.2),
  ...hand('Left', 0.35),
};

const celebration: Pose = {
  LeftArm: [0, 0, 2.3],
  RightArm: [0, 0, -2.3],
  LeftForeArm: [0, 0, 0.3],
  RightForeArm: [0, 0, -0.3],
  Spine: [-0.05, 0, 0],
  Spine2: [-0.06, 0, 0],
  Head: [-0.12, 0, 0],
  ...hands(-0.18, -0.1),
};

const comforting: Pose = {
  LeftArm: [-0.6, 0, 0.15],
  RightArm: [-0.6, 0, -0.15],
  LeftForeArm: [0, -0.7, 0],
  RightForeArm: [0, 0.7, 0],
  Spine1: [0.08, 0, 0],
  Head: [0.1, 0, 0.12],
  ...hands(0.15),
};

const surprise: Pose = {
  LeftArm: [-0.2, 0, 0.45],
  RightArm: [-0.2, 0, -0.45],
  LeftForeArm: [0, -0.9, 0],
  RightForeArm: [0, 0.9, 0],
  Spine: [-0.06, 0, 0],
  Spine2: [-0.05, 0, 0],
  Head: [-0.12, 0, 0],
  ...hands(-0.3, -0.2),
};

const angry: Pose = {
  LeftArm: [0, 0, 0.2],
  RightArm: [0, 0, -0.2],
  LeftForeArm: [0, -0.5, 0],
  RightForeArm: [0, 0.5, 0],
  LeftShoulder: [0, 0, 0.1],
  RightShoulder: [0, 0, -0.1],
  Spine1: [0.08, 0, 0],
  Head: [0.1, 0, 0],
  ...hands(1.35, 0.9),
};

const laughing: Pose = {
  LeftArm: [-0.3, 0, 0.1],
  RightArm: [-0.3, 0, -0.1],
  LeftForeArm: [0, -1, 0],
  RightForeArm: [0, 1, 0],
  Spine1: [-0.08, 0, 0],
  Head: [-0.15, 0, 0],
  ...hands(0.4),
};

const clapping: Pose = {
  LeftArm: [-0.9, -0.1, 0.25],
  RightArm: [-0.9, 0.1, -0.25],
  LeftForeArm: [0, -1.2, 0],
  RightForeArm: [0, 1.2, 0],
  Head: [0.04, 0, 0],
  ...hands(-0.2, 0),
};

/** A real kneel bends the legs further than spec §9 allows; compute.ts clamps them to ±0.5. */
const kneeling: Pose = {
  LeftUpLeg: [-1.1, 0, 0],
  LeftLeg: [1.3, 0, 0],
  RightUpLeg: [0.4, 0, 0],
  RightLeg: [1.5, 0, 0],
  LeftFoot: [-0.3, 0, 0],
  Spine: [0.15, 0, 0],
  Head: [0.12, 0, 0],
  RightArm: [-0.3, 0, 0],
  RightForeArm: [0, 0.8, 0],
};

const rest: Pose = {};

export const GESTURE_CLIPS: Readonly<Record<Gesture, GestureClip>> = {
  greeting: {
    keys: [
      [0, wave],
      [0.85, wave],
      [1, { ...wave, RightForeArm: [0, 0.2, -0.9] }],
    ],
    waves: [{ bone: 'RightForeArm', axis: 2, amp: 0.3, hz: 2.2, to: 0.85 }],
    face: { mouthSmileLeft: 0.4, mouthSmileRight: 0.4, browOuterUpLeft: 0.2, browOuterUpRight: 0.2 },
  },
  goodbye: {
    keys: [
      [0, { ...wave, Head: [0.08, 0, -0.05] }],
      [0.8, { ...wave, Head: [0.08, 0, -0.05] }],
      [1, { RightArm: [0, 0.1, -0.4], RightForeArm: [0, 0.2, -0.3], Head: [0.05, 0, 0] }],
    ],
    waves: [{ bone: 'RightForeArm', axis: 2, amp: 0.4, hz: 1.6, to: 0.8 }],
    face: { mouthSmileLeft: 0.3, mouthSmileRight: 0.3 },
  },
  nodding: {
    keys: [
      [0, { Head: [0.05, 0, 0], Neck: [0.04, 0, 0] }],
      [1, { Head: [0.05, 0, 0], Neck: [0.04, 0, 0] }],
    ],
    waves: [{ bone: 'Head', axis: 0, amp: 0.14, hz: 2, to: 0.8 }],
  },
  shaking: {
    keys: [
      [0, { Head: [0.03, 0, 0] }],
      [1, { Head: [0.03, 0, 0] }],
    ],
    waves: [{ bone: 'Head', axis: 1, amp: 0.25, hz: 2.2, to: 0.8 }],
    face: { browInnerUp: 0.3 },
  },
  thinking: {
    keys: [
      [0, thinking],
      [1, thinking],
    ],
    waves: [{ bone: 'Head', axis: 2, amp: 0.03, hz: 0.4 }],
    face: { browDownLeft: 0.3, mouthPucker: 0.2, eyeSquintRight: 0.2 },
  },
  celebration: {
    keys: [
      [0, celebration],
      [0.85, celebration],
      [1, { ...celebration, LeftArm: [0, 0, 1.4], RightArm: [0, 0, -1.4] }],
    ],
    waves: [
      { bone: 'LeftArm', axis: 2, amp: 0.15, hz: 2.5, to: 0.85 },
      { bone: 'RightArm', axis: 2, amp: -0.15, hz: 2.5, to: 0.85 },
      { bone: 'Spine', axis: 0, amp: 0.04, hz: 2.5, to: 0.85 },
    ],
    face: { mouthSmileLeft: 0.7, mouthSmileRight: 0.7, eyeWideLeft: 0.25, eyeWideRight: 0.25 },
  },
  comforting: {
    keys: [
      [0, comforting],
      [1, comforting],
    ],
    waves: [{ bone: 'Head', axis: 2, amp: 0.03, hz: 0.5 }],
    face: { browInnerUp: 0.45, mouthSmileLeft: 0.2, mouthSmileRight: 0.2 },
  },
  surprise: {
    keys: [
      [0, surprise],
      [0.6, surprise],
      [1, { ...surprise, LeftArm: [-0.1, 0, 0.2], RightArm: [-0.1, 0, -0.2] }],
    ],
    face: {
      eyeWideLeft: 0.8,
      eyeWideRight: 0.8,
      browInnerUp: 0.6,
      browOuterUpLeft: 0.6,
      browOuterUpRight: 0.6,
      jawOpen: 0.3,
    },
  },
  angry: {
    keys: [
      [0, angry],
      [1, angry],
    ],
    waves: [{ bone: 'Head', axis: 1, amp: 0.06, hz: 1.5, to: 0.5 }],
    face: {
      browDownLeft: 0.8,
      browDownRight: 0.8,
      eyeSquintLeft: 0.4,
      eyeSquintRight: 0.4,
      mouthFrownLeft: 0.5,
      mouthFrownRight: 0.5,
    },
  },
  laughing: {
    keys: [
      [0, laughing],
      [1, laughing],
    ],
    waves: [
      { bone: 'Spine1', axis: 0, amp: 0.06, hz: 4, to: 0.85 },
      { bone: 'LeftShoulder', axis: 2, amp: 0.06, hz: 4, to: 0.85 },
      { bone: 'RightShoulder', axis: 2, amp: -0.06, hz: 4, to: 0.85 },
    ],
    face: { mouthSmileLeft: 1, mouthSmileRight: 1, eyeSquintLeft: 0.5, eyeSquintRight: 0.5, jawOpen: 0.35 },
  },
  clapping: {
    keys: [
      [0, clapping],
      [1, clapping],
    ],
    waves: [
      { bone: 'LeftArm', axis: 1, amp: 0.18, hz: 2.5, to: 0.85 },
      { bone: 'RightArm', axis: 1, amp: -0.18, hz: 2.5, to: 0.85 },
    ],
    face: { mouthSmileLeft: 0.5, mouthSmileRight: 0.5 },
  },
  kneeling: {
    keys: [
      [0, rest],
      [0.15, kneeling],
      [1, kneeling],
    ],
    hipsDrop: 0.25,
  },
};

export interface GestureOutput {
  pose: Record<string, Vec3>;
  face: Record<string, number>;
  hipsDrop: number;
}

function envelope(u: number, from: number, to: number): number {
  const span = Math.max(1e-6, to - from);
  const edge = span * 0.1;
  return smoothstep((u - from) / edge) * smoothstep((to - u) / edge);
}

/** One gesture's pose at `tMs`, scaled by `weight` and added into `out`. */
export function addGesture(out: GestureOutput, g: GestureTiming, tMs: number, weight: number): void {
  if (weight <= 0) return;
  const clip = GESTURE_CLIPS[g.gesture];
  const span = Math.max(1, g.endMs - g.startMs);
  const u = clamp01((tMs - g.startMs) / span);
  // Keyframes: the segment around u, eased.
  let i = 0;
  while (i < clip.keys.length - 2 && u > (clip.keys[i + 1]?.[0] ?? 1)) i += 1;
  const [u0, p0] = clip.keys[i] ?? [0, rest];
  const [u1, p1] = clip.keys[i + 1] ?? [u0, p0];
  const k = u1 > u0 ? smoothstep((u - u0) / (u1 - u0)) : 1;
  const bones = new Set([...Object.keys(p0), ...Object.keys(p1)]);
  for (const bone of bones) {
    const a = p0[bone] ?? [0, 0, 0];
    const b = p1[bone] ?? [0, 0, 0];
    const v = (out.pose[bone] ??= [0, 0, 0]);
    v[0] += (a[0] + (b[0] - a[0]) * k) * weight;
    v[1] += (a[1] + (b[1] - a[1]) * k) * weight;
    v[2] += (a[2] + (b[2] - a[2]) * k) * weight;
  }
  const seconds = (tMs - g.startMs) / 1000;
  for (const w of clip.waves ?? []) {
    const env = envelope(u, w.from ?? 0, w.to ?? 1);
    if (env <= 0) continue;
    const v = (out.pose[w.bone] ??= [0, 0, 0]);
    v[w.axis] += w.amp * Math.sin(Math.PI * 2 * w.hz * seconds) * env * weight;
  }
  for (const [name, value] of Object.entries(clip.face ?? {}))
    out.face[name] = Math.max(out.face[name] ?? 0, value * weight);
  // The hips go down while the first key (the way into the pose) plays.
  const firstKey = clip.keys[1]?.[0] ?? 1;
  out.hipsDrop += (clip.hipsDrop ?? 0) * weight * smoothstep(u / Math.max(1e-6, firstKey));
}
