import {
  BONE_ROTATION_CLAMP,
  BONE_ROTATION_CLAMP_ADDITIVE,
  GESTURES,
  LEG_ROTATION_CLAMP,
} from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { createAvatarAnimator } from './animator';
import { addLayer, computeFrame, limitFor } from './compute';
import type { FrameState } from './frame';
import { GESTURE_CLIPS } from './layers/gestures';
import { blinkWeight } from './layers/idle';
import type { Vec3 } from './math';
import { analyseRig } from './rig';
import { buildRig, READY_PLAYER_ME_MORPHS, type RigSpec } from './testing/rigs';

const SEED = 11;

function stateFor(spec: Parameters<typeof buildRig>[0] = {}): FrameState {
  const animator = createAvatarAnimator(buildRig({ morphs: READY_PLAYER_ME_MORPHS, ...spec }).root, {
    pool: null,
    seed: SEED,
  });
  animator.update(0);
  return animator.snapshot();
}

/** A time at which the seeded idle layer has the eyes fully closed. */
function fullBlinkTime(seed: number): number {
  for (let t = 0; t < 60_000; t += 1) if (blinkWeight(seed, t) > 0.999) return t;
  throw new Error('no blink in a minute');
}

const LEGS = /(UpLeg|Leg|Foot|ToeBase)$/;

describe('spec §9 clamps', () => {
  it.each<[string, RigSpec]>([
    ['a T-pose rig', {}],
    ['an A-pose rig', { pose: 'A' }],
    ['a steep A-pose rig', { pose: 'A', aDrop: 0.96 }],
  ])(
    `no gesture turns a bone beyond ±${BONE_ROTATION_CLAMP} rad or a leg beyond ±${LEG_ROTATION_CLAMP} (%s)`,
    (_l, spec) => {
      const base = stateFor(spec);
      let legAtLimit = false;
      let armAtLimit = false;
      for (const gesture of GESTURES) {
        const state: FrameState = {
          ...base,
          gestures: [{ gesture, startMs: 0, endMs: 4000, returnStartMs: null }],
          emotion: { ...base.emotion, emotion: 'excited', intensity: 1, changedMs: 0 },
        };
        for (let t = 0; t <= 4000; t += 50) {
          const frame = computeFrame(state, t);
          for (const [bone, r] of Object.entries(frame.bones)) {
            const limit = LEGS.test(bone) ? LEG_ROTATION_CLAMP : BONE_ROTATION_CLAMP;
            const worst = Math.max(...r.map(Math.abs));
            if (worst > limit) expect.fail(`${gesture} at ${t} ms turns ${bone} by ${worst}`);
            if (LEGS.test(bone) && r.some((v) => Math.abs(v) === LEG_ROTATION_CLAMP)) legAtLimit = true;
            if (!LEGS.test(bone) && r.some((v) => Math.abs(v) === BONE_ROTATION_CLAMP)) armAtLimit = true;
          }
        }
      }
      // The kneel asks for more than the legs may do, so the clamp is what holds it.
      expect(legAtLimit).toBe(true);
      if (spec.aDrop) expect(armAtLimit).toBe(true);
    },
  );

  it(`additive layers are clamped to ±${BONE_ROTATION_CLAMP_ADDITIVE} per axis`, () => {
    const pose: Record<string, Vec3> = {};
    addLayer(pose, { Head: [0.5, -0.3, 0.05] }, 1, BONE_ROTATION_CLAMP_ADDITIVE);
    expect(pose.Head).toEqual([0.1, -0.1, 0.05]);
    expect(limitFor('LeftLeg')).toBe(LEG_ROTATION_CLAMP);
    expect(limitFor('Head')).toBe(BONE_ROTATION_CLAMP);
  });

  it('idle and speaking micro-motion stay within the additive limit', () => {
    const base = stateFor();
    const still = computeFrame({ ...base, overrides: { ...base.overrides, still: true } }, 1000);
    const state: FrameState = {
      ...base,
      speaking: { sinceMs: 0, fromWeight: 1, stoppedMs: null, returnStartMs: null },
      mouth: { aa: 1 },
    };
    for (let t = 0; t < 10_000; t += 37) {
      const frame = computeFrame(state, t);
      for (const bone of ['Spine', 'Spine1', 'Spine2', 'Neck', 'Head']) {
        const moving = frame.bones[bone] ?? [0, 0, 0];
        const rest = still.bones[bone] ?? [0, 0, 0];
        for (let i = 0; i < 3; i++)
          expect(Math.abs((moving[i] ?? 0) - (rest[i] ?? 0))).toBeLessThanOrEqual(
            2 * BONE_ROTATION_CLAMP_ADDITIVE + 1e-9,
          );
      }
    }
  });

  it('every gesture has a clip that moves something', () => {
    const base = stateFor();
    const idle = computeFrame(base, 1500);
    for (const gesture of GESTURES) {
      expect(GESTURE_CLIPS[gesture].keys.length).toBeGreaterThan(0);
      const frame = computeFrame(
        { ...base, gestures: [{ gesture, startMs: 0, endMs: 4000, returnStartMs: null }] },
        1500,
      );
      expect(frame.bones, gesture).not.toEqual(idle.bones);
    }
  });
});

describe('gestures use the fingers (AV-5)', () => {
  /** A gesture's frame at its middle, on a rig with finger bones. */
  const midGesture = (gesture: (typeof GESTURES)[number]) => {
    const base = stateFor({ fingers: true });
    return computeFrame(
      { ...base, gestures: [{ gesture, startMs: 0, endMs: 4000, returnStartMs: null }] },
      2000,
    );
  };
  /** Canonical curl of a finger bone towards the palm of a T-pose: −z on the left, +z on the right. */
  const curl = (frame: ReturnType<typeof computeFrame>, bone: string) =>
    (frame.bones[bone]?.[2] ?? 0) * (bone.startsWith('Left') ? -1 : 1);

  it('angry clenches both fists: every finger joint curls towards the palm', () => {
    const frame = midGesture('angry');
    for (const side of ['Left', 'Right'])
      for (const finger of ['Index', 'Middle', 'Ring', 'Pinky'])
        for (const n of [1, 2, 3]) expect(curl(frame, `${side}Hand${finger}${n}`)).toBeGreaterThan(1);
  });

  it('greeting opens the waving hand and leaves the other one relaxed', () => {
    const frame = midGesture('greeting');
    expect(curl(frame, 'RightHandIndex1')).toBeLessThan(0);
    expect(curl(frame, 'RightHandPinky2')).toBeLessThan(0);
    expect(frame.bones.LeftHandIndex1 ?? [0, 0, 0]).toEqual([0, 0, 0]);
  });

  it('thinking curls the chin hand but keeps its index finger nearly straight', () => {
    const frame = midGesture('thinking');
    expect(curl(frame, 'RightHandMiddle2')).toBeGreaterThan(0.8);
    expect(curl(frame, 'RightHandIndex2')).toBeLessThan(0.3);
  });
});

describe('face: blinks, visemes and emotions share the face', () => {
  it('a blink never changes the viseme weights, and the blink wins over a squint', () => {
    const base = stateFor();
    const t = fullBlinkTime(SEED);
    const state: FrameState = {
      ...base,
      mouth: { aa: 0.9, O: 0.3 },
      emotion: {
        emotion: 'happy',
        intensity: 1,
        previous: 'neutral',
        previousIntensity: 0,
        changedMs: -10_000,
      },
    };
    const blinking = computeFrame(state, t);
    expect(blinking.morphs.eyeBlinkLeft).toBeCloseTo(1, 2);
    expect(blinking.morphs.eyeBlinkRight).toBeCloseTo(1, 2);
    expect(blinking.morphs.eyeSquintLeft).toBeCloseTo(0, 2);
    expect(blinking.morphs.viseme_aa).toBe(0.9);
    expect(blinking.morphs.viseme_O).toBe(0.3);
    const open = computeFrame(state, t + 1000);
    expect(open.morphs.eyeBlinkLeft).toBe(0);
    expect(open.morphs.eyeSquintLeft).toBeCloseTo(0.3, 5);
    expect(open.morphs.viseme_aa).toBe(0.9);
  });

  it('a smile gives way to lip-closing visemes, which keep their full weight', () => {
    const base = stateFor();
    const happy: FrameState = {
      ...base,
      emotion: {
        emotion: 'happy',
        intensity: 1,
        previous: 'neutral',
        previousIntensity: 0,
        changedMs: -10_000,
      },
    };
    const silent = computeFrame(happy, 100);
    const pp = computeFrame({ ...happy, mouth: { PP: 1 } }, 100);
    expect(silent.morphs.mouthSmileLeft).toBeCloseTo(0.7, 5);
    expect(pp.morphs.viseme_PP).toBe(1);
    expect(pp.morphs.mouthSmileLeft).toBeLessThan(0.3);
  });

  it.each([
    ['happy', 'mouthSmileLeft'],
    ['sad', 'mouthFrownLeft'],
    ['angry', 'browDownLeft'],
    ['fearful', 'browInnerUp'],
    ['excited', 'eyeWideLeft'],
    ['calm', 'mouthSmileRight'],
    ['surprised', 'browOuterUpLeft'],
  ] as const)('%s shows %s, scaled by intensity, and changes the posture', (emotion, shape) => {
    const base = stateFor();
    const at = (intensity: number) =>
      computeFrame(
        {
          ...base,
          emotion: { emotion, intensity, previous: 'neutral', previousIntensity: 0, changedMs: -10_000 },
          overrides: { ...base.overrides, still: true },
        },
        0,
      );
    const full = at(1);
    const half = at(0.5);
    expect(full.morphs[shape]).toBeGreaterThan(0.1);
    expect(half.morphs[shape]).toBeCloseTo((full.morphs[shape] ?? 0) / 2, 5);
    expect(full.bones).not.toEqual(at(0).bones);
  });

  it('neutral shows no face shapes', () => {
    const base = stateFor();
    const frame = computeFrame({ ...base, overrides: { ...base.overrides, still: true } }, 0);
    for (const name of ['mouthSmileLeft', 'mouthFrownLeft', 'browDownLeft', 'browInnerUp', 'eyeWideLeft'])
      expect(frame.morphs[name]).toBe(0);
  });

  it('without viseme morphs the mouth opens with jawOpen and the Jaw bone', () => {
    const { root } = buildRig({ morphs: ['jawOpen'] });
    const analysis = analyseRig(root);
    const animator = createAvatarAnimator(root, { pool: null, seed: SEED });
    animator.update(0);
    const state = animator.snapshot();
    expect(analysis.profile.hasVisemes).toBe(false);
    const open = computeFrame({ ...state, mouth: { aa: 1 } }, 0);
    const shut = computeFrame({ ...state, mouth: {} }, 0);
    expect(open.morphs.jawOpen).toBeGreaterThan(0.9);
    expect(open.morphs.viseme_aa).toBeUndefined();
    expect((open.bones.Jaw?.[0] ?? 0) - (shut.bones.Jaw?.[0] ?? 0)).toBeGreaterThan(0.15);
  });

  it('an audio level opens the mouth when a chunk carries no visemes', () => {
    const base = stateFor();
    const frame = computeFrame({ ...base, mouth: {}, level: 0.8 }, 0);
    expect(frame.morphs.viseme_aa).toBeGreaterThan(0.5);
    expect(computeFrame({ ...base, mouth: {}, level: 0 }, 0).morphs.viseme_aa).toBe(0);
  });
});

describe('a relaxed stance (AV-5)', () => {
  const still = () => {
    const base = stateFor({ fingers: true });
    return computeFrame({ ...base, overrides: { ...base.overrides, still: true } }, 1000);
  };
  const z = (frame: ReturnType<typeof computeFrame>, bone: string) => frame.bones[bone]?.[2] ?? 0;

  it('arms hang close to the body with the elbows a little bent, not in an A-pose', () => {
    const frame = still();
    // Within 15° of vertical (an A-pose holds them 30–45° out).
    expect(-z(frame, 'LeftArm')).toBeGreaterThan(Math.PI / 2 - 0.27);
    expect(z(frame, 'RightArm')).toBeGreaterThan(Math.PI / 2 - 0.27);
    expect(-(frame.bones.LeftForeArm?.[1] ?? 0)).toBeGreaterThan(0.15);
    expect(frame.bones.RightForeArm?.[1] ?? 0).toBeGreaterThan(0.15);
  });

  it('the weight rests on one leg: the hips tip, the thighs and the chest stay upright, the free knee eases', () => {
    const frame = still();
    const hips = z(frame, 'Hips');
    expect(Math.abs(hips)).toBeGreaterThan(0.03);
    for (const leg of ['LeftUpLeg', 'RightUpLeg']) expect(hips + z(frame, leg), leg).toBeCloseTo(0, 6);
    expect(hips + z(frame, 'Spine') + z(frame, 'Spine1')).toBeCloseTo(0, 6);
    // The hip drops on the free side (the left, −z); its knee bends so the foot stays down.
    expect(hips).toBeLessThan(0);
    expect(frame.bones.LeftLeg?.[0] ?? 0).toBeGreaterThan(0.1);
    expect(frame.bones.RightLeg?.[0] ?? 0).toBe(0);
  });

  it('the idle shifts the weight slowly between the legs, the thighs following so the feet stay down', () => {
    const base = stateFor({ fingers: true });
    const hips: number[] = [];
    for (let t = 0; t <= 12_000; t += 500) {
      const frame = computeFrame(base, t);
      const h = z(frame, 'Hips');
      hips.push(h);
      expect(h + z(frame, 'LeftUpLeg')).toBeCloseTo(0, 6);
      expect(h + z(frame, 'RightUpLeg')).toBeCloseTo(0, 6);
    }
    expect(Math.max(...hips) - Math.min(...hips)).toBeGreaterThan(0.02);
  });
});

describe('idle life', () => {
  it('blinks at natural random intervals, the same for the same seed', () => {
    const blinkStarts = (seed: number) => {
      const starts: number[] = [];
      let closed = false;
      for (let t = 0; t < 600_000; t += 10) {
        const w = blinkWeight(seed, t);
        if (w > 0.5 && !closed) starts.push(t);
        closed = w > 0.5;
      }
      return starts;
    };
    const starts = blinkStarts(SEED);
    const gaps = starts.slice(1).map((t, i) => t - (starts[i] ?? 0));
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    // People blink every 2–6 s on average, never on a fixed beat.
    expect(mean).toBeGreaterThan(2000);
    expect(mean).toBeLessThan(6000);
    expect(Math.min(...gaps)).toBeGreaterThan(150);
    expect(Math.max(...gaps)).toBeLessThan(8000);
    expect(new Set(gaps.map((g) => Math.round(g / 500))).size).toBeGreaterThan(5);
    // Seeded: the same seed gives the same blinks, another seed other blinks.
    expect(blinkStarts(SEED)).toEqual(starts);
    expect(blinkStarts(SEED + 1)).not.toEqual(starts);
  });

  it('breathes and moves the eyes, unless held still', () => {
    const base = stateFor();
    const a = computeFrame(base, 1000);
    const b = computeFrame(base, 2000);
    expect(a.bones.Spine2).not.toEqual(b.bones.Spine2);
    expect(a.bones.LeftEye).not.toEqual(b.bones.LeftEye);
    const still = { ...base, overrides: { ...base.overrides, still: true } };
    const t = fullBlinkTime(SEED);
    expect(computeFrame(still, 1000)).toEqual(computeFrame(still, 2000));
    expect(computeFrame(still, t).morphs.eyeBlinkLeft).toBe(0);
  });

  it('looks toward the gaze target with head and eyes', () => {
    const base = stateFor();
    const still = { ...base, overrides: { ...base.overrides, still: true } };
    const ahead = computeFrame(still, 0);
    const left = computeFrame({ ...still, gaze: [0.5, 0] }, 0);
    expect((left.bones.Head?.[1] ?? 0) - (ahead.bones.Head?.[1] ?? 0)).toBeGreaterThan(0.1);
    expect((left.bones.LeftEye?.[1] ?? 0) - (ahead.bones.LeftEye?.[1] ?? 0)).toBeGreaterThan(0.2);
  });
});
