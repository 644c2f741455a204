import { describe, expect, it } from 'vitest';
import { periodEnd, usagePeriod } from './period.ts';

describe('usage periods', () => {
  it('L-2 names the UTC month, whatever the local time zone would say', () => {
    expect(usagePeriod(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(usagePeriod(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    // 23:30 on Nov 30 in New York is already December in UTC.
    expect(usagePeriod(new Date('2026-11-30T23:30:00-05:00'))).toBe('2026-12');
  });

  it('L-2 resets on the 1st of the next month at 00:00 UTC, across the year end', () => {
    expect(periodEnd(new Date('2026-11-15T12:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(periodEnd(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(periodEnd(new Date('2028-02-29T00:00:00Z')).toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });
});
