/**
 * The animator: owns one model's timing state, asks the pure core (in the page or in the worker
 * pool) for a frame and applies it to the three.js objects. The viewer calls `update(nowMs)`
 * once per rendered frame; nothing here touches React.
 */
import {
  ANIMATION_INTENT_DURATION_MS,
  ANIMATION_INTENT_TAIL_MS,
  ANIMATION_MAX_UPDATES_PER_SECOND,
  RETURN_TO_BASE_AFTER_GESTURE_MS,
  RETURN_TO_BASE_AFTER_SPEECH_MS,
  type Gesture,
} from '@alma/protocol';
import { Matrix4, Quaternion, Vector3, type Mesh, type Object3D } from 'three';
import { computeFrame } from './compute';
import type {
  AnimatorOptions,
  AnimatorOverrides,
  AvatarAnimator,
  AvatarEmotion,
  MouthSource,
} from './contract';
import type { FramePool, FrameResult, FrameState, GestureTiming } from './frame';
import { mouthTargets, smoothMouth } from './layers/speech';
import { clamp01 } from './math';
import { getSharedAnimationPool } from './pool';
import { ReturnScheduler } from './returns';
import { analyseRig, applyBoneOffset, type RigAnalysis } from './rig';
import { emotionProgress, gestureDone, speakingWeight } from './timing';

/** Time between two computed frames (spec §9: at most 60 per second). */
export const MIN_FRAME_INTERVAL_MS = 1000 / ANIMATION_MAX_UPDATES_PER_SECOND;
/** A frame this early still counts as on time (vsync jitter); the average rate stays at 60. */
const FRAME_JITTER_MS = 1;
const DEFAULT_EMOTION_INTENSITY = 0.7;
/** A pool answer this late (two frames) is replaced by an in-page frame for the time being. */
const STALE_MS = 2 * MIN_FRAME_INTERVAL_MS;
/** A gaze target further than this to the side (rad) is ignored: the avatar looks ahead. */
const GAZE_MAX_YAW = 1.2;
const GAZE_LIMIT = 0.8;

export interface AvatarAnimatorExtras {
  /** Where the avatar looks (world space), e.g. the camera; null looks ahead. */
  lookAt(target: { x: number; y: number; z: number } | null): void;
  /** The last frame applied (tests, debugging). */
  readonly lastFrame: FrameResult | null;
  /** A copy of the serialisable state the next frame is computed from (tests, bench). */
  snapshot(): FrameState;
}

export type FullAvatarAnimator = AvatarAnimator & AvatarAnimatorExtras;

let animatorCount = 0;

/**
 * A copy of the parts of the state that change in place (the rig profile and the mouth map are
 * replaced, never mutated), so a frame computed later sees the state of now.
 */
function copyState(state: FrameState): FrameState {
  return {
    ...state,
    speaking: { ...state.speaking },
    emotion: { ...state.emotion },
    gestures: state.gestures.map((g) => ({ ...g })),
    overrides: { ...state.overrides },
  };
}

/** Hips drop in the hips' parent space: the root-space vector (0, -height, 0). */
function hipsDrop(
  analysis: RigAnalysis,
  root: Object3D,
): { node: Object3D; rest: Vector3; down: Vector3 } | null {
  const hips = analysis.bones.get('Hips')?.node;
  const parent = hips?.parent;
  if (!hips || !parent) return null;
  root.updateMatrixWorld(true);
  const rootInverse = new Matrix4().copy(root.matrixWorld).invert();
  const hipsInRoot = new Vector3().setFromMatrixPosition(
    new Matrix4().multiplyMatrices(rootInverse, hips.matrixWorld),
  );
  const height = Math.max(0, hipsInRoot.y);
  if (height === 0) return null;
  const parentInverse = new Matrix4().copy(parent.matrixWorld).invert().multiply(root.matrixWorld);
  const from = hipsInRoot.clone().applyMatrix4(parentInverse);
  const to = hipsInRoot.clone().setY(0).applyMatrix4(parentInverse);
  return { node: hips, rest: hips.position.clone(), down: to.sub(from) };
}

export function createAvatarAnimator(root: Object3D, options: AnimatorOptions = {}): FullAvatarAnimator {
  const analysis = analyseRig(root);
  const slots = morphSlots(analysis.morphs);
  const key = `avatar-${++animatorCount}`;
  const pool: FramePool | null = options.pool === undefined ? getSharedAnimationPool() : options.pool;
  const hips = hipsDrop(analysis, root);
  const frameRotation = new Quaternion().setFromUnitVectors(
    new Vector3(0, 0, 1),
    {
      '+Z': new Vector3(0, 0, 1),
      '-Z': new Vector3(0, 0, -1),
      '+X': new Vector3(1, 0, 0),
      '-X': new Vector3(-1, 0, 0),
    }[analysis.report.facing],
  );

  let mouthSource: MouthSource | null = null;
  let overrides: FrameState['overrides'] = { viseme: null, emotion: null, still: false };
  let gazeTarget: Vector3 | null = null;
  let speakingNow = false;
  let lastUpdateMs: number | null = null;
  let nextFrameMs: number | null = null;
  /** The pool's latest answer and the frame time it was computed for. */
  let latest: { frame: FrameResult; tMs: number } | null = null;
  let applied: FrameResult | null = null;
  let appliedTMs = -Infinity;
  /** When the pending pool request was sent (null: none pending). */
  let inFlightSince: number | null = null;
  let disposed = false;
  const scheduler = new ReturnScheduler();
  const state: FrameState = {
    rig: analysis.profile,
    seed: options.seed ?? Math.floor(Math.random() * 0xffffffff),
    speaking: { sinceMs: null, fromWeight: 0, stoppedMs: null, returnStartMs: null },
    mouth: {},
    level: 0,
    emotion: { emotion: 'neutral', intensity: 0, previous: 'neutral', previousIntensity: 0, changedMs: 0 },
    gestures: [],
    gaze: null,
    overrides,
  };
  /** The clock of the latest update; setters stamp their changes with it. */
  let clockMs: number | null = null;
  /** Changes made before the first update wait for its clock. */
  const early: ((t: number) => void)[] = [];
  const stamped = (change: (t: number) => void) => {
    if (clockMs === null) early.push(change);
    else change(clockMs);
  };

  const scheduleReturns = (nowMs: number) => {
    const due: { at: number; start: (t: number) => void }[] = [];
    const s = state.speaking;
    if (s.sinceMs === null && s.stoppedMs !== null && s.returnStartMs === null) {
      due.push({ at: s.stoppedMs + RETURN_TO_BASE_AFTER_SPEECH_MS, start: (t) => (s.returnStartMs = t) });
    }
    for (const g of state.gestures) {
      if (g.returnStartMs === null) {
        due.push({ at: g.endMs + RETURN_TO_BASE_AFTER_GESTURE_MS, start: (t) => (g.returnStartMs = t) });
      }
    }
    due.sort((a, b) => a.at - b.at);
    for (const d of due) {
      const start = scheduler.slot(d.at, nowMs);
      if (start !== null) d.start(start);
    }
    state.gestures = state.gestures.filter((g) => !gestureDone(g, nowMs));
  };

  const updateGaze = () => {
    const head = analysis.head;
    if (!gazeTarget || !head) {
      state.gaze = null;
      return;
    }
    const from = head.getWorldPosition(new Vector3());
    const dir = gazeTarget.clone().sub(from);
    const rootRotation = root.getWorldQuaternion(new Quaternion()).invert();
    dir.applyQuaternion(rootRotation).applyQuaternion(frameRotation.clone().invert());
    const yaw = Math.atan2(dir.x, dir.z);
    if (Math.abs(yaw) > GAZE_MAX_YAW) {
      state.gaze = null;
      return;
    }
    const pitch = Math.atan2(-dir.y, Math.hypot(dir.x, dir.z));
    const limit = (v: number) => Math.max(-GAZE_LIMIT, Math.min(GAZE_LIMIT, v));
    state.gaze = [limit(yaw), limit(pitch)];
  };

  const apply = (frame: FrameResult, tMs: number) => {
    for (const [name, binding] of analysis.bones) applyBoneOffset(binding, frame.bones[name]);
    if (hips) {
      hips.node.position.copy(hips.rest);
      if (frame.hipsDrop) hips.node.position.addScaledVector(hips.down, frame.hipsDrop);
    }
    for (const { mesh, index, names } of slots) {
      let value = 0;
      for (const name of names) value = Math.max(value, frame.morphs[name] ?? 0);
      const influences = mesh.morphTargetInfluences;
      if (influences && index < influences.length) influences[index] = value;
    }
    applied = frame;
    appliedTMs = tMs;
  };

  const animator: FullAvatarAnimator = {
    report: analysis.report,
    setMouthSource(source) {
      mouthSource = source;
    },
    setSpeaking(speaking) {
      if (speaking === speakingNow) return;
      speakingNow = speaking;
      stamped((t) => {
        const from = speakingWeight(state.speaking, t);
        state.speaking = speaking
          ? { sinceMs: t, fromWeight: from, stoppedMs: null, returnStartMs: null }
          : { sinceMs: null, fromWeight: from, stoppedMs: t, returnStartMs: null };
      });
    },
    setEmotion(emotion: AvatarEmotion, intensity = DEFAULT_EMOTION_INTENSITY) {
      stamped((t) => {
        const e = state.emotion;
        const k = emotionProgress(e, t);
        // The emotion showing most becomes the one blended from.
        const [previous, previousIntensity] =
          k >= 0.5 ? [e.emotion, e.intensity * k] : [e.previous, e.previousIntensity * (1 - k)];
        state.emotion = { emotion, intensity: clamp01(intensity), previous, previousIntensity, changedMs: t };
      });
    },
    playGesture(gesture: Gesture, durationMs = ANIMATION_INTENT_DURATION_MS, startInMs = 0) {
      stamped((now) => {
        const t = now + Math.max(0, startInMs);
        const g: GestureTiming = {
          gesture,
          startMs: t,
          endMs: t + Math.max(0, durationMs) + ANIMATION_INTENT_TAIL_MS,
          returnStartMs: null,
        };
        // Keep the previous gesture only to fade out under the new one.
        const previous = state.gestures.at(-1);
        state.gestures = previous ? [previous, g] : [g];
      });
    },
    setOverrides(next: AnimatorOverrides) {
      overrides = {
        viseme: next.viseme === undefined ? overrides.viseme : next.viseme,
        emotion: next.emotion === undefined ? overrides.emotion : next.emotion,
        still: next.still ?? overrides.still,
      };
      state.overrides = overrides;
      nextFrameMs = null;
    },
    lookAt(target) {
      gazeTarget = target ? new Vector3(target.x, target.y, target.z) : null;
    },
    get lastFrame() {
      return applied;
    },
    snapshot() {
      return copyState(state);
    },
    update(nowMs) {
      if (disposed) return;
      clockMs = nowMs;
      for (const change of early.splice(0)) change(nowMs);
      const dt = lastUpdateMs === null ? 0 : nowMs - lastUpdateMs;
      lastUpdateMs = nowMs;
      // The mouth is smoothed every call so attack and release follow real time.
      const { targets, level } = mouthTargets(mouthSource);
      state.mouth = smoothMouth(state.mouth, targets, dt);
      state.level = level;
      if (nextFrameMs !== null && nowMs < nextFrameMs - FRAME_JITTER_MS) return;
      // On time: keep the cadence; late by more than a frame (a hitch): restart it from now.
      const cadence =
        nextFrameMs === null || nowMs - nextFrameMs > MIN_FRAME_INTERVAL_MS ? nowMs : nextFrameMs;
      nextFrameMs = cadence + MIN_FRAME_INTERVAL_MS;
      scheduleReturns(nowMs);
      updateGaze();
      if (!pool) {
        apply(computeFrame(state, nowMs), nowMs);
        return;
      }
      if (inFlightSince === null) {
        inFlightSince = nowMs;
        const sent = nowMs;
        void pool.compute(key, copyState(state), nowMs).then((frame) => {
          inFlightSince = null;
          latest = { frame, tMs: sent };
        });
      }
      // The worker's answer, unless it is older than what is shown. A first frame, or an answer
      // overdue by more than STALE_FRAMES frames (a worker booting or stuck until its 1 s
      // time-out), is computed in the page so the avatar never freezes.
      if (latest && latest.tMs > appliedTMs) apply(latest.frame, latest.tMs);
      else if (applied === null || (inFlightSince !== null && nowMs - inFlightSince > STALE_MS)) {
        apply(computeFrame(state, nowMs), nowMs);
      }
    },
    dispose() {
      disposed = true;
      pool?.release?.(key);
      for (const binding of analysis.bones.values()) binding.node.quaternion.copy(binding.rest);
      if (hips) hips.node.position.copy(hips.rest);
      for (const bindings of analysis.morphs.values()) {
        for (const { mesh, index } of bindings)
          if (mesh.morphTargetInfluences) mesh.morphTargetInfluences[index] = 0;
      }
    },
  };
  return animator;
}

/**
 * Each morph target once, with the canonical morphs that drive it: a stand-in (a combined blink
 * for both eyes, `mouthOpen` for `jawOpen`) plays the strongest of them rather than the last.
 */
function morphSlots(morphs: RigAnalysis['morphs']): { mesh: Mesh; index: number; names: string[] }[] {
  const slots = new Map<Mesh, Map<number, string[]>>();
  for (const [name, bindings] of morphs)
    for (const { mesh, index } of bindings) {
      const byIndex = slots.get(mesh) ?? new Map<number, string[]>();
      byIndex.set(index, [...(byIndex.get(index) ?? []), name]);
      slots.set(mesh, byIndex);
    }
  return [...slots].flatMap(([mesh, byIndex]) =>
    [...byIndex].map(([index, names]) => ({ mesh, index, names })),
  );
}
