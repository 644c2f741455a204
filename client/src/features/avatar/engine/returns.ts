/**
 * When layers may return to the base pose (spec §9): a layer says when it is due (1 s after a
 * gesture, 0.5 s after speech); returns start at least 2 s apart. A return due within 2 s of the
 * previous one waits for the end of that window; returns due at the same moment start together.
 */
import { RETURN_TO_BASE_MIN_INTERVAL_MS } from '@alma/protocol';

export class ReturnScheduler {
  private lastStartMs: number | null = null;

  /**
   * The start of the return of a layer due at `dueMs`, or null while it has to wait. Call it
   * each frame for each waiting layer, in order of due time.
   */
  slot(dueMs: number, nowMs: number): number | null {
    if (nowMs < dueMs) return null;
    const last = this.lastStartMs;
    let start: number;
    if (last === null) start = dueMs;
    else if (dueMs <= last) start = last;
    else start = Math.max(dueMs, last + RETURN_TO_BASE_MIN_INTERVAL_MS);
    if (start > nowMs) return null;
    this.lastStartMs = start;
    return start;
  }

  get lastReturnMs(): number | null {
    return this.lastStartMs;
  }
}
