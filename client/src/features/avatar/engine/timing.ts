/**
 * Layer weights as pure functions of time (spec §4, §9): idle ↔ speaking over 0.3 s, the return
 * to the base pose over 0.8 s with a cubic ease, an intent lasting its duration plus 1 s.
 */
import { IDLE_SPEAKING_BLEND_S, RETURN_TO_BASE_TRANSITION_S } from '@alma/protocol';
import type { EmotionTiming, GestureTiming, SpeakingTiming } from './frame';
import { easeInOutCubic, lerp, smoothstep } from './math';

export const BLEND_MS = IDLE_SPEAKING_BLEND_S * 1000;
export const RETURN_MS = RETURN_TO_BASE_TRANSITION_S * 1000;
/** A gesture fades in as fast as speech does. */
export const GESTURE_BLEND_IN_MS = BLEND_MS;
/** Face and posture move from one emotion to the next over this time. */
export const EMOTION_BLEND_MS = 500;

/** Weight 0–1 of a layer returning to the base pose: 1 until `returnStartMs`, then a cubic ease. */
export function returnWeight(returnStartMs: number | null, tMs: number): number {
  if (returnStartMs === null || tMs <= returnStartMs) return 1;
  return 1 - easeInOutCubic((tMs - returnStartMs) / RETURN_MS);
}

/** The speaking layer's weight 0–1 (the idle layer gets the rest). */
export function speakingWeight(s: SpeakingTiming, tMs: number): number {
  if (s.sinceMs !== null) {
    return lerp(s.fromWeight, 1, smoothstep((tMs - s.sinceMs) / BLEND_MS));
  }
  if (s.stoppedMs === null) return 0;
  return s.fromWeight * returnWeight(s.returnStartMs, tMs);
}

/** A gesture's weight 0–1: fade in, play until `endMs`, hold, then return. */
export function gestureWeight(g: GestureTiming, tMs: number): number {
  if (tMs < g.startMs) return 0;
  return smoothstep((tMs - g.startMs) / GESTURE_BLEND_IN_MS) * returnWeight(g.returnStartMs, tMs);
}

/** Whether the gesture has fully returned (it can be dropped). */
export function gestureDone(g: GestureTiming, tMs: number): boolean {
  return g.returnStartMs !== null && tMs >= g.returnStartMs + RETURN_MS;
}

/** How far the emotion blend is (0 = previous emotion, 1 = current). */
export function emotionProgress(e: EmotionTiming, tMs: number): number {
  return smoothstep((tMs - e.changedMs) / EMOTION_BLEND_MS);
}
