import type { Log } from './logger.ts';

/** How long a repeated warning is counted before the count is logged. */
export const REPEATED_WARNING_WINDOW_MS = 10_000;

/**
 * A warning that can come hundreds of times a second under load (at 200 replies at once, most
 * replies go on as text: SPEC.md S-10) logged as a person would want to read it: the first at
 * once, with its fields; the ones that follow within `windowMs` counted, and the count logged when
 * the window ends — one line per window for as long as they keep coming, none once they stop.
 * Each line was a synchronous write on the event loop, ~540 of them a 200-reply round.
 */
export function createRepeatedWarning(
  log: Log,
  message: string,
  { windowMs = REPEATED_WARNING_WINDOW_MS }: { windowMs?: number } = {},
): { warn(fields: object): void } {
  let timer: NodeJS.Timeout | null = null;
  let more = 0;

  const endWindow = () => {
    if (more > 0) {
      // Still coming: logged as a count, and another window counts the next ones.
      log.warn({ more, windowMs }, `${message} (${more} more in ${windowMs / 1000} s)`);
      more = 0;
      return;
    }
    // A quiet window: the next one is logged at once again.
    clearInterval(timer ?? undefined);
    timer = null;
  };

  return {
    warn(fields) {
      if (timer) {
        more += 1;
        return;
      }
      log.warn(fields, message);
      timer = setInterval(endWindow, windowMs);
      timer.unref();
    },
  };
}
