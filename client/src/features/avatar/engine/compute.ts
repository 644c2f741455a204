/**
 * The pure core: `computeFrame(state, tMs)` blends the layers into bone offsets and morph
 * weights. No three.js, no DOM, no clock: it runs the same in the page and in a worker.
 *
 * Layer order: base pose → emotion posture → idle micro-motion (additive) → speaking micro-motion
 * (additive) → gaze → gestures; then the model's rest correction is taken off and every bone is
 * clamped (spec §9: ±2 rad, additive layers ±0.1, legs ±0.5).
 */
import {
  BONE_ROTATION_CLAMP,
  BONE_ROTATION_CLAMP_ADDITIVE,
  CANONICAL_BONES,
  LEG_ROTATION_CLAMP,
} from '@alma/protocol';
import type { FrameResult, FrameState } from './frame';
import { BASE_POSE } from './layers/base';
import { emotionLayer } from './layers/emotion';
import { addGesture, type GestureOutput } from './layers/gestures';
import { idleLayer } from './layers/idle';
import { speechLayer } from './layers/speech';
import { VISEMES } from './layers/speech';
import { clamp, clamp01, type Vec3 } from './math';
import { gestureWeight, speakingWeight } from './timing';

const LEG_BONES: ReadonlySet<string> = new Set(
  CANONICAL_BONES.filter((bone) => /^(Left|Right)(UpLeg|Leg|Foot|ToeBase)$/.test(bone)),
);
/** Breathing and sway keep this share of their amplitude while speaking. */
const IDLE_WHILE_SPEAKING = 0.5;

export function limitFor(bone: string): number {
  return LEG_BONES.has(bone) ? LEG_ROTATION_CLAMP : BONE_ROTATION_CLAMP;
}

/** Adds a layer into `target`, each axis of each bone clamped to `limit` first. */
export function addLayer(
  target: Record<string, Vec3>,
  source: Record<string, Readonly<Vec3>>,
  scale: number,
  limit: number,
): void {
  for (const bone in source) {
    const r = source[bone];
    if (!r) continue;
    const v = (target[bone] ??= [0, 0, 0]);
    v[0] += clamp(r[0] * scale, -limit, limit);
    v[1] += clamp(r[1] * scale, -limit, limit);
    v[2] += clamp(r[2] * scale, -limit, limit);
  }
}

const SIDES = ['Left', 'Right'] as const;

export function computeFrame(state: FrameState, tMs: number): FrameResult {
  const { rig, overrides } = state;
  const still = overrides.still;
  const speaking = speakingWeight(state.speaking, tMs);

  // Bones, in the canonical frame relative to the canonical T-pose.
  const pose: Record<string, Vec3> = {};
  addLayer(pose, BASE_POSE, 1, BONE_ROTATION_CLAMP);
  const emotion = emotionLayer(state.emotion, overrides.emotion, tMs);
  addLayer(pose, emotion.posture, 1, BONE_ROTATION_CLAMP);
  const idle = idleLayer(state.seed, tMs, 1 - (1 - IDLE_WHILE_SPEAKING) * speaking, still, state.gaze);
  addLayer(pose, idle.additive, 1, BONE_ROTATION_CLAMP_ADDITIVE);
  const speech = speechLayer(state.mouth, state.level, overrides.viseme, speaking, tMs, still);
  addLayer(pose, speech.additive, 1, BONE_ROTATION_CLAMP_ADDITIVE);
  addLayer(pose, idle.gaze, 1, BONE_ROTATION_CLAMP);
  if (!rig.hasVisemes && rig.hasJawBone) addLayer(pose, { Jaw: [speech.jaw, 0, 0] }, 1, BONE_ROTATION_CLAMP);

  const gestures: GestureOutput = { pose: {}, face: {}, hipsDrop: 0 };
  // The newest gesture blends over the older one as it fades in.
  let remaining = 1;
  for (let i = state.gestures.length - 1; i >= 0; i--) {
    const g = state.gestures[i];
    if (!g) continue;
    const w = gestureWeight(g, tMs);
    addGesture(gestures, g, tMs, w * remaining);
    remaining *= 1 - (tMs >= g.startMs ? Math.min(1, w) : 0);
    if (remaining <= 0) break;
  }
  addLayer(pose, gestures.pose, 1, Infinity);

  const bones: Record<string, Vec3> = {};
  for (const bone of rig.bones) {
    const v = pose[bone];
    const correction = rig.corrections[bone];
    if (!v && !correction) continue;
    const limit = limitFor(bone);
    const x = (v?.[0] ?? 0) - (correction?.[0] ?? 0);
    const y = (v?.[1] ?? 0) - (correction?.[1] ?? 0);
    const z = (v?.[2] ?? 0) - (correction?.[2] ?? 0);
    bones[bone] = [clamp(x, -limit, limit), clamp(y, -limit, limit), clamp(z, -limit, limit)];
  }

  // Morphs: visemes as spoken; face shapes give way to the mouth, blinks win over squints.
  const morphs: Record<string, number> = {};
  if (rig.hasVisemes) {
    for (const v of VISEMES) morphs[`viseme_${v}`] = clamp01(speech.visemes[v] ?? 0);
  }
  const face: Record<string, number> = { ...emotion.face };
  for (const [name, w] of Object.entries(gestures.face)) face[name] = Math.max(face[name] ?? 0, w);
  const blink = idle.blink;
  const mouthBusy = speech.activity;
  for (const side of SIDES) {
    morphs[`eyeBlink${side}`] = clamp01(Math.max(blink, face[`eyeBlink${side}`] ?? 0));
    morphs[`eyeSquint${side}`] = clamp01((face[`eyeSquint${side}`] ?? 0) * (1 - blink));
    morphs[`eyeWide${side}`] = clamp01((face[`eyeWide${side}`] ?? 0) * (1 - blink));
    morphs[`mouthSmile${side}`] = clamp01(
      (face[`mouthSmile${side}`] ?? 0) * (1 - 0.5 * speech.openness) * (1 - 0.7 * speech.lipShape),
    );
    morphs[`mouthFrown${side}`] = clamp01(
      (face[`mouthFrown${side}`] ?? 0) * (1 - 0.5 * speech.openness) * (1 - 0.5 * speech.lipShape),
    );
    morphs[`browDown${side}`] = clamp01(face[`browDown${side}`] ?? 0);
    morphs[`browOuterUp${side}`] = clamp01(face[`browOuterUp${side}`] ?? 0);
  }
  morphs.browInnerUp = clamp01(face.browInnerUp ?? 0);
  morphs.mouthPucker = clamp01((face.mouthPucker ?? 0) * (1 - mouthBusy));
  const speechJaw = rig.hasVisemes ? 0 : speech.openness;
  morphs.jawOpen = clamp01(Math.max(speechJaw, (face.jawOpen ?? 0) * (1 - mouthBusy)));
  morphs.mouthOpen = clamp01(Math.max(speechJaw * 0.8, (face.mouthOpen ?? 0) * (1 - mouthBusy)));

  const result: FrameResult = { bones, morphs };
  if (gestures.hipsDrop > 0) result.hipsDrop = clamp01(gestures.hipsDrop);
  return result;
}
