import {
  ANIMATION_INTENT_DURATION_MS,
  ANIMATION_INTENT_TAIL_MS,
  IDLE_SPEAKING_BLEND_S,
  RETURN_TO_BASE_AFTER_GESTURE_MS,
  RETURN_TO_BASE_AFTER_SPEECH_MS,
  RETURN_TO_BASE_MIN_INTERVAL_MS,
  RETURN_TO_BASE_TRANSITION_S,
} from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { createAvatarAnimator } from './animator';
import { computeFrame } from './compute';
import { buildRig } from './testing/rigs';
import { gestureWeight, speakingWeight } from './timing';

const FRAME = 1000 / 60;

function setup() {
  const { root } = buildRig();
  const animator = createAvatarAnimator(root, { pool: null, seed: 7 });
  animator.update(0);
  return animator;
}

/** Runs the animator's clock from `from` to `to` at 60 fps. */
function run(animator: ReturnType<typeof setup>, from: number, to: number): void {
  for (let t = from; t <= to; t += FRAME) animator.update(t);
  animator.update(to);
}

describe('spec §4/§9 timing: idle ↔ speaking', () => {
  it(`blends idle → speaking over ${IDLE_SPEAKING_BLEND_S} s`, () => {
    const animator = setup();
    run(animator, 0, 1000);
    animator.setSpeaking(true);
    const s = animator.snapshot().speaking;
    expect(speakingWeight(s, 1000)).toBe(0);
    expect(speakingWeight(s, 1150)).toBeCloseTo(0.5, 5);
    expect(speakingWeight(s, 1290)).toBeLessThan(1);
    expect(speakingWeight(s, 1300)).toBe(1);
  });

  it(`returns to the base pose ${RETURN_TO_BASE_AFTER_SPEECH_MS} ms after speech ends, over ${RETURN_TO_BASE_TRANSITION_S} s with a cubic ease`, () => {
    const animator = setup();
    animator.setSpeaking(true);
    run(animator, 0, 2000);
    animator.setSpeaking(false);
    run(animator, 2000, 2499);
    expect(animator.snapshot().speaking.returnStartMs).toBeNull();
    run(animator, 2499, 2600);
    const s = animator.snapshot().speaking;
    expect(s.returnStartMs).toBe(2500);
    expect(speakingWeight(s, 2499)).toBe(1);
    // Cubic in-out: a quarter of the way it has moved 1/16, halfway 1/2, at 0.8 s it is done.
    expect(speakingWeight(s, 2700)).toBeCloseTo(1 - 0.0625, 5);
    expect(speakingWeight(s, 2900)).toBeCloseTo(0.5, 5);
    expect(speakingWeight(s, 3300)).toBe(0);
  });
});

describe('spec §4/§9 timing: gestures and returns', () => {
  it(`an intent lasts its duration (default ${ANIMATION_INTENT_DURATION_MS} ms) + ${ANIMATION_INTENT_TAIL_MS} ms`, () => {
    const animator = setup();
    run(animator, 0, 500);
    animator.playGesture('nodding');
    expect(animator.snapshot().gestures.at(-1)).toMatchObject({ startMs: 500, endMs: 4500 });
    animator.playGesture('thinking', 2000);
    expect(animator.snapshot().gestures.at(-1)).toMatchObject({ startMs: 500, endMs: 3500 });
  });

  it(`returns ${RETURN_TO_BASE_AFTER_GESTURE_MS} ms after a gesture ends, over ${RETURN_TO_BASE_TRANSITION_S} s`, () => {
    const animator = setup();
    animator.playGesture('greeting');
    run(animator, 0, 4990);
    expect(animator.snapshot().gestures[0]?.returnStartMs).toBeNull();
    run(animator, 4990, 5100);
    const g = animator.snapshot().gestures[0];
    expect(g?.returnStartMs).toBe(5000);
    if (!g) return;
    expect(gestureWeight(g, 4999)).toBe(1);
    expect(gestureWeight(g, 5200)).toBeCloseTo(1 - 0.0625, 5);
    expect(gestureWeight(g, 5400)).toBeCloseTo(0.5, 5);
    expect(gestureWeight(g, 5800)).toBe(0);
    run(animator, 5100, 5900);
    expect(animator.snapshot().gestures).toEqual([]);
  });

  it('the arm is back in the base pose once the return is over', () => {
    const { root } = buildRig();
    const withGesture = createAvatarAnimator(root, { pool: null, seed: 3 });
    const idle = createAvatarAnimator(buildRig().root, { pool: null, seed: 3 });
    withGesture.update(0);
    idle.update(0);
    withGesture.playGesture('greeting', 1000);
    for (let t = 0; t <= 1500; t += FRAME) {
      withGesture.update(t);
      idle.update(t);
    }
    // Raised: the right arm is nowhere near its idle drop.
    expect(
      Math.abs(
        (withGesture.lastFrame?.bones.RightArm?.[2] ?? 0) - (idle.lastFrame?.bones.RightArm?.[2] ?? 0),
      ),
    ).toBeGreaterThan(1);
    for (let t = 1500; t <= 4000; t += FRAME) {
      withGesture.update(t);
      idle.update(t);
    }
    withGesture.update(4000);
    idle.update(4000);
    expect(withGesture.lastFrame?.bones.RightArm).toEqual(idle.lastFrame?.bones.RightArm);
  });

  it(`keeps at least ${RETURN_TO_BASE_MIN_INTERVAL_MS} ms between two returns`, () => {
    const animator = setup();
    animator.setSpeaking(true);
    animator.playGesture('nodding', 0); // ends at 1000 ms, due to return at 2000 ms
    run(animator, 0, 100);
    animator.setSpeaking(false); // due to return at 600 ms
    run(animator, 100, 2590);
    const waiting = animator.snapshot();
    expect(waiting.speaking.returnStartMs).toBe(600);
    // The gesture was due at 2000 ms but waits for the 2 s window after 600 ms.
    expect(waiting.gestures[0]?.returnStartMs).toBeNull();
    run(animator, 2590, 2700);
    expect(animator.snapshot().gestures[0]?.returnStartMs).toBe(2600);
  });

  it('returns due at the same moment start together', () => {
    const animator = setup();
    animator.setSpeaking(true);
    run(animator, 0, 500);
    animator.playGesture('nodding', 0); // ends 1500, due 2500
    run(animator, 500, 2000);
    animator.setSpeaking(false); // due 2500
    run(animator, 2000, 3000);
    const state = animator.snapshot();
    expect(state.speaking.returnStartMs).toBe(2500);
    expect(state.gestures[0]?.returnStartMs).toBe(2500);
  });

  it("changes made before the first frame take the first frame's clock", () => {
    const animator = createAvatarAnimator(buildRig().root, { pool: null, seed: 7 });
    animator.playGesture('greeting');
    animator.setSpeaking(true);
    animator.update(90_000);
    const state = animator.snapshot();
    expect(state.gestures[0]).toMatchObject({ startMs: 90_000, endMs: 94_000 });
    expect(state.speaking.sinceMs).toBe(90_000);
  });

  it('an intent can start later (its atMs on the speech timeline)', () => {
    const animator = setup();
    run(animator, 0, 1000);
    animator.playGesture('nodding', 3000, 1500);
    expect(animator.snapshot().gestures[0]).toMatchObject({ startMs: 2500, endMs: 6500 });
    expect(gestureWeight(animator.snapshot().gestures[0]!, 2400)).toBe(0);
  });

  it('a new gesture fades in over the one playing', () => {
    const animator = setup();
    animator.playGesture('celebration');
    run(animator, 0, 1000);
    animator.playGesture('thinking');
    const state = animator.snapshot();
    expect(state.gestures.map((g) => g.gesture)).toEqual(['celebration', 'thinking']);
    const thinkingAlone = { ...state, gestures: state.gestures.slice(1) };
    const celebrationAlone = { ...state, gestures: state.gestures.slice(0, 1) };
    const arm = (s: typeof state, t: number) => computeFrame(s, t).bones.LeftArm?.[2] ?? NaN;
    expect(arm(state, 1000)).toBeCloseTo(arm(celebrationAlone, 1000), 5);
    expect(arm(state, 1150)).not.toBeCloseTo(arm(celebrationAlone, 1150), 1);
    expect(arm(state, 1300)).toBeCloseTo(arm(thinkingAlone, 1300), 5);
  });
});
