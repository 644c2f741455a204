/**
 * Emotions → ARKit face shapes and posture, at intensity 1; the layer scales them by the
 * intensity and blends from the previous emotion. Signs follow the canonical frame: +x bends a
 * spine or head forward, +z raises the left shoulder (−z the right one).
 */
import type { AvatarEmotion } from '../contract';
import type { EmotionTiming } from '../frame';
import type { Vec3 } from '../math';
import { emotionProgress } from '../timing';

export interface EmotionShape {
  face: Readonly<Record<string, number>>;
  posture: Readonly<Record<string, Readonly<Vec3>>>;
}

const both = (base: string, w: number) => ({ [`${base}Left`]: w, [`${base}Right`]: w });

export const EMOTION_SHAPES: Readonly<Record<AvatarEmotion, EmotionShape>> = {
  neutral: { face: {}, posture: {} },
  happy: {
    face: { ...both('mouthSmile', 0.7), ...both('eyeSquint', 0.3), ...both('browOuterUp', 0.15) },
    posture: { Spine2: [-0.04, 0, 0], Head: [-0.05, 0, 0.04] },
  },
  excited: {
    face: {
      ...both('mouthSmile', 0.85),
      ...both('eyeWide', 0.35),
      ...both('browOuterUp', 0.4),
      browInnerUp: 0.25,
    },
    posture: {
      Spine2: [-0.06, 0, 0],
      Head: [-0.08, 0, 0],
      LeftShoulder: [0, 0, 0.05],
      RightShoulder: [0, 0, -0.05],
    },
  },
  calm: {
    face: { ...both('mouthSmile', 0.2), ...both('eyeSquint', 0.12) },
    posture: { Head: [0.02, 0, 0.05], LeftShoulder: [0, 0, -0.03], RightShoulder: [0, 0, 0.03] },
  },
  sad: {
    face: { ...both('mouthFrown', 0.6), browInnerUp: 0.7, ...both('eyeSquint', 0.1) },
    posture: {
      Head: [0.22, 0, 0],
      Neck: [0.08, 0, 0],
      Spine1: [0.06, 0, 0],
      Spine2: [0.06, 0, 0],
      LeftShoulder: [0, 0, -0.05],
      RightShoulder: [0, 0, 0.05],
    },
  },
  angry: {
    face: { ...both('browDown', 0.8), ...both('eyeSquint', 0.4), ...both('mouthFrown', 0.35) },
    posture: {
      Head: [0.1, 0, 0],
      Spine1: [0.05, 0, 0],
      LeftShoulder: [0, 0, 0.08],
      RightShoulder: [0, 0, -0.08],
    },
  },
  fearful: {
    face: {
      browInnerUp: 0.8,
      ...both('eyeWide', 0.6),
      ...both('browOuterUp', 0.3),
      ...both('mouthFrown', 0.2),
    },
    posture: {
      Head: [0.06, 0, 0],
      Spine1: [0.05, 0, 0],
      LeftShoulder: [0, 0, 0.12],
      RightShoulder: [0, 0, -0.12],
    },
  },
  surprised: {
    face: {
      ...both('eyeWide', 0.8),
      browInnerUp: 0.6,
      ...both('browOuterUp', 0.7),
      // A dropped jaw and rounded lips: an "oh", not a smile.
      jawOpen: 0.4,
      mouthOpen: 0.35,
      mouthPucker: 0.3,
    },
    posture: {
      Head: [-0.1, 0, 0],
      Spine2: [-0.05, 0, 0],
      LeftShoulder: [0, 0, 0.06],
      RightShoulder: [0, 0, -0.06],
    },
  },
};

export interface EmotionOutput {
  face: Record<string, number>;
  posture: Record<string, Vec3>;
}

function addShape(out: EmotionOutput, shape: EmotionShape, scale: number): void {
  if (scale <= 0) return;
  for (const [name, w] of Object.entries(shape.face)) out.face[name] = (out.face[name] ?? 0) + w * scale;
  for (const [bone, r] of Object.entries(shape.posture)) {
    const v = (out.posture[bone] ??= [0, 0, 0]);
    v[0] += r[0] * scale;
    v[1] += r[1] * scale;
    v[2] += r[2] * scale;
  }
}

/** The emotion's face and posture at `tMs`; an override shows the held emotion at full intensity. */
export function emotionLayer(e: EmotionTiming, override: AvatarEmotion | null, tMs: number): EmotionOutput {
  const out: EmotionOutput = { face: {}, posture: {} };
  if (override) {
    addShape(out, EMOTION_SHAPES[override], 1);
    return out;
  }
  const k = emotionProgress(e, tMs);
  addShape(out, EMOTION_SHAPES[e.previous], (1 - k) * e.previousIntensity);
  addShape(out, EMOTION_SHAPES[e.emotion], k * e.intensity);
  return out;
}
