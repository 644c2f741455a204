import { describe, expect, it, vi } from 'vitest';
import { keptResults } from './kept-results.ts';

describe('keptResults', () => {
  it("makes a key's result once and gives it again", () => {
    const make = vi.fn((key: string) => ({ key }));
    const kept = keptResults(make, 10);
    const first = kept('a');
    expect(kept('a')).toBe(first);
    expect(kept('b')).toEqual({ key: 'b' });
    expect(make).toHaveBeenCalledTimes(2);
  });

  it('keeps at most `max` keys, the first asked longest ago dropped first, and makes it again', () => {
    const make = vi.fn((key: string) => ({ key }));
    const kept = keptResults(make, 2);
    const a = kept('a');
    kept('b');
    kept('c'); // drops a
    expect(kept('b')).toEqual({ key: 'b' });
    expect(make).toHaveBeenCalledTimes(3);
    const again = kept('a');
    expect(again).not.toBe(a);
    expect(again).toEqual({ key: 'a' });
    expect(make).toHaveBeenCalledTimes(4);
  });
});
