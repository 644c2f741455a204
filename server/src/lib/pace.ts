import { abortableSleep } from './abortable-sleep.ts';

/**
 * Paces a stream of pieces on a fixed timeline: piece `index` is due `index × intervalMs` after
 * `start()` or the first wait. Waiting for a due time (not `intervalMs` after the previous piece)
 * means a timer that fires late, or a consumer that took a while with the previous piece, does not
 * push every later piece back: the stream catches up instead of drifting (issue 14: under load the
 * drift of back-to-back timers, not the work, was most of the text's lateness).
 */
export function createPacer(intervalMs: number) {
  let start: number | undefined;
  return {
    /** Starts the timeline now, if it has not started: piece 0 is due now. */
    start(): void {
      start ??= performance.now();
    },
    /** Resolves when piece `index` is due (at once if it already is), or early on abort. */
    async wait(index: number, signal: AbortSignal): Promise<void> {
      start ??= performance.now();
      if (intervalMs <= 0) return;
      const remaining = start + index * intervalMs - performance.now();
      if (remaining > 0) await abortableSleep(remaining, signal);
    },
  };
}
