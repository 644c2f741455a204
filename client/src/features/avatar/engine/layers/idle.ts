/**
 * Idle life: breathing on the spine and chest, a slow shift of the weight between the legs, blinks at natural random intervals, eye saccades,
 * a subtle head sway and the gaze toward the camera. Deterministic: blinks and saccades come from
 * a seeded hash of time slots, so a frame depends only on (state, t).
 */
import type { Vec3 } from '../math';
import { clamp, random01, smoothstep } from '../math';

const BREATH_MS = 4200;
/** One slow drift of the weight from leg to leg and back. */
const WEIGHT_SHIFT_MS = 9700;
/** Each slot holds one blink (sometimes a double one) at a random offset: 2–6 s apart on average. */
const BLINK_SLOT_MS = 4000;
const BLINK_CLOSE_MS = 60;
const BLINK_OPEN_MS = 110;
const BLINK_MS = BLINK_CLOSE_MS + BLINK_OPEN_MS;
const DOUBLE_BLINK_GAP_MS = 260;
const DOUBLE_BLINK_CHANCE = 0.15;
const SACCADE_SLOT_MS = 900;
const SACCADE_MOVE_MS = 45;
const SACCADE_YAW = 0.07;
const SACCADE_PITCH = 0.04;
/** Share of a gaze turn the head takes; the eyes take the rest. */
const GAZE_HEAD_SHARE = 0.35;
const GAZE_HEAD_LIMIT = 0.35;
const GAZE_EYE_LIMIT = 0.3;

const TAU = Math.PI * 2;

function blinkShape(dt: number): number {
  if (dt < 0 || dt >= BLINK_MS) return 0;
  if (dt < BLINK_CLOSE_MS) return smoothstep(dt / BLINK_CLOSE_MS);
  return 1 - smoothstep((dt - BLINK_CLOSE_MS) / BLINK_OPEN_MS);
}

/** Eyelid closure 0–1 at `tMs`. */
export function blinkWeight(seed: number, tMs: number): number {
  const slot = Math.floor(tMs / BLINK_SLOT_MS);
  const slotStart = slot * BLINK_SLOT_MS;
  const room = BLINK_SLOT_MS - BLINK_MS - DOUBLE_BLINK_GAP_MS;
  const at = slotStart + random01(seed, slot * 2) * room;
  const twice = random01(seed, slot * 2 + 1) < DOUBLE_BLINK_CHANCE;
  const first = blinkShape(tMs - at);
  return twice ? Math.max(first, blinkShape(tMs - at - DOUBLE_BLINK_GAP_MS)) : first;
}

function saccadeTarget(seed: number, slot: number): [number, number] {
  return [
    (random01(seed ^ 0x5bd1e995, slot * 2) * 2 - 1) * SACCADE_YAW,
    (random01(seed ^ 0x5bd1e995, slot * 2 + 1) * 2 - 1) * SACCADE_PITCH,
  ];
}

/** Eye yaw / pitch of the saccades at `tMs`: a quick move at each slot start, then a fixation. */
export function saccade(seed: number, tMs: number): [number, number] {
  const slot = Math.floor(tMs / SACCADE_SLOT_MS);
  const from = saccadeTarget(seed, slot - 1);
  const to = saccadeTarget(seed, slot);
  const k = smoothstep((tMs - slot * SACCADE_SLOT_MS) / SACCADE_MOVE_MS);
  return [from[0] + (to[0] - from[0]) * k, from[1] + (to[1] - from[1]) * k];
}

export interface IdleOutput {
  /** Additive micro-motion (clamped to the additive limit by the caller). */
  additive: Record<string, Vec3>;
  /** Gaze: head and eye rotations (a pose, not micro-motion). */
  gaze: Record<string, Vec3>;
  blink: number;
}

/**
 * `scale` fades breathing and sway while speaking; `still` freezes breathing, blinks, saccades
 * and sway for stable screenshots.
 */
export function idleLayer(
  seed: number,
  tMs: number,
  scale: number,
  still: boolean,
  gaze: [number, number] | null,
): IdleOutput {
  const additive: Record<string, Vec3> = {};
  const gazeOut: Record<string, Vec3> = {};
  const [gazeYaw, gazePitch] = gaze ?? [0, 0];
  const headYaw = clamp(gazeYaw * GAZE_HEAD_SHARE, -GAZE_HEAD_LIMIT, GAZE_HEAD_LIMIT);
  const headPitch = clamp(gazePitch * GAZE_HEAD_SHARE, -GAZE_HEAD_LIMIT, GAZE_HEAD_LIMIT);
  if (headYaw !== 0 || headPitch !== 0) gazeOut.Head = [headPitch, headYaw, 0];
  let eyeYaw = gazeYaw - headYaw;
  let eyePitch = gazePitch - headPitch;
  if (still) {
    const eyes: Vec3 = [
      clamp(eyePitch, -GAZE_EYE_LIMIT, GAZE_EYE_LIMIT),
      clamp(eyeYaw, -GAZE_EYE_LIMIT, GAZE_EYE_LIMIT),
      0,
    ];
    gazeOut.LeftEye = eyes;
    gazeOut.RightEye = [...eyes];
    return { additive, gaze: gazeOut, blink: 0 };
  }
  const phase = (seed % 997) / 997;
  const breath = Math.sin((TAU * tMs) / BREATH_MS);
  additive.Spine1 = [-0.014 * breath * scale, 0, 0];
  additive.Spine2 = [-0.02 * breath * scale, 0, 0];
  additive.Neck = [0.012 * breath * scale, 0, 0];
  additive.LeftShoulder = [0, 0, 0.015 * breath * scale];
  additive.RightShoulder = [0, 0, -0.015 * breath * scale];
  // The weight drifts slowly between the legs: the hips roll and sway a little, the thighs
  // and the spine turn back so the feet stay down and the shoulders level.
  const shift = Math.sin((TAU * tMs) / WEIGHT_SHIFT_MS + phase * 7) * scale;
  additive.Hips = [0, 0.012 * shift, 0.016 * shift];
  additive.LeftUpLeg = [0, 0, -0.016 * shift];
  additive.RightUpLeg = [0, 0, -0.016 * shift];
  additive.Spine = [-0.01 * breath * scale, -0.008 * shift, -0.012 * shift];
  additive.Head = [
    0.02 * Math.sin((TAU * tMs) / 5100 + phase * TAU) * scale,
    0.035 * Math.sin((TAU * tMs) / 7300 + phase * 3) * scale,
    0.015 * Math.sin((TAU * tMs) / 9100 + phase * 5) * scale,
  ];
  const [sy, sp] = saccade(seed, tMs);
  eyeYaw += sy;
  eyePitch += sp;
  const eyes: Vec3 = [
    clamp(eyePitch, -GAZE_EYE_LIMIT, GAZE_EYE_LIMIT),
    clamp(eyeYaw, -GAZE_EYE_LIMIT, GAZE_EYE_LIMIT),
    0,
  ];
  gazeOut.LeftEye = eyes;
  gazeOut.RightEye = [...eyes];
  return { additive, gaze: gazeOut, blink: blinkWeight(seed, tMs) };
}
