import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRepeatedWarning } from './repeated-warning.ts';

function capture() {
  const lines: { fields: object; message: string | undefined }[] = [];
  const log = {
    warn: (fields: object, message?: string) => lines.push({ fields, message }),
    info: () => undefined,
    error: () => undefined,
  };
  return { log, lines };
}

describe('a warning repeated under load', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('logs the first at once and counts the rest of the window in one line', () => {
    const { log, lines } = capture();
    const busy = createRepeatedWarning(log, 'speech too busy', { windowMs: 10_000 });
    for (let k = 0; k < 200; k++) busy.warn({ replyId: `r${k}` });
    expect(lines).toEqual([{ fields: { replyId: 'r0' }, message: 'speech too busy' }]);
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      fields: { more: 199, windowMs: 10_000 },
      message: 'speech too busy (199 more in 10 s)',
    });
  });

  it('logs one line a window while they keep coming, and the next at once after a quiet window', () => {
    const { log, lines } = capture();
    const busy = createRepeatedWarning(log, 'busy', { windowMs: 1000 });
    busy.warn({ k: 1 });
    busy.warn({ k: 2 });
    vi.advanceTimersByTime(1000); // "1 more"
    busy.warn({ k: 3 });
    busy.warn({ k: 4 });
    vi.advanceTimersByTime(1000); // "2 more"
    vi.advanceTimersByTime(1000); // a quiet window: nothing, and the window closes
    vi.advanceTimersByTime(5000);
    busy.warn({ k: 5 }); // logged at once again, with its fields
    expect(lines.map((l) => l.message)).toEqual([
      'busy',
      'busy (1 more in 1 s)',
      'busy (2 more in 1 s)',
      'busy',
    ]);
    expect(lines[3]?.fields).toEqual({ k: 5 });
  });
});
