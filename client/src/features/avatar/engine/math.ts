/** Small numeric helpers shared by the layers; pure and allocation-light. */

export type Vec3 = [number, number, number];

export const clamp = (value: number, min: number, max: number): number =>
  value < min ? min : value > max ? max : value;

export const clamp01 = (value: number): number => clamp(value, 0, 1);

export const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** Hermite smoothstep on [0, 1]. */
export const smoothstep = (t: number): number => {
  const x = clamp01(t);
  return x * x * (3 - 2 * x);
};

/** The cubic ease of the return to the base pose (spec §9 "0.8 s with a cubic ease"). */
export const easeInOutCubic = (t: number): number => {
  const x = clamp01(t);
  return x < 0.5 ? 4 * x * x * x : 1 - (-2 * x + 2) ** 3 / 2;
};

/** A 32-bit integer hash of a seed and a slot: the same inputs give the same number. */
export function hash32(seed: number, slot: number): number {
  let h = (seed ^ Math.imul(slot + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seeded random number in [0, 1) for `slot`, stable across calls (idle timing). */
export const random01 = (seed: number, slot: number): number => hash32(seed, slot) / 4294967296;
