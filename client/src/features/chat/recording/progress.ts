/**
 * Spec §4 Voice note: while no real progress arrives, the placeholder shows a simulated
 * transcription percentage rising by up to 15 every 0.5 s, capped at 90.
 */
export const SIMULATED_STEP_MS = 500;
export const SIMULATED_MAX_STEP = 15;
export const SIMULATED_CAP = 90;

/** One step: `random` in [0, 1) gives a rise of 1…15, never past the cap. */
export function nextSimulatedProgress(current: number, random: number = Math.random()): number {
  if (current >= SIMULATED_CAP) return Math.max(current, 0);
  const step = Math.min(SIMULATED_MAX_STEP, Math.max(1, Math.ceil(random * SIMULATED_MAX_STEP)));
  return Math.min(SIMULATED_CAP, current + step);
}

/**
 * Calls `onProgress` every 0.5 s with the next simulated value while `current()` says there is
 * nothing better (null stops it); returns the stop function.
 */
export function startSimulatedProgress(
  current: () => number | null,
  onProgress: (progress: number) => void,
  random: () => number = Math.random,
): () => void {
  const timer = setInterval(() => {
    const value = current();
    if (value === null) {
      clearInterval(timer);
      return;
    }
    const next = nextSimulatedProgress(value, random());
    if (next !== value) onProgress(next);
  }, SIMULATED_STEP_MS);
  return () => clearInterval(timer);
}
