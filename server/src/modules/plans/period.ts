/**
 * Usage periods (SPEC.md L-2): calendar months in UTC. A period is named `YYYY-MM`; it ends — and
 * the counters start again from zero — on the 1st of the next month at 00:00 UTC.
 */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first instant of the next period: when usage resets, and when a paid period ends. */
export function periodEnd(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
