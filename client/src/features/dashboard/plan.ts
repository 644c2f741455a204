import { PLANS, USAGE_DANGER_RATIO, USAGE_WARNING_RATIO, type Plan } from '@alma/protocol';

/**
 * Rules of the dashboard that are worth a test of their own: which plan to show (spec §3) and
 * the colour of a usage bar (spec §2 Usage, §9).
 */

/** If the server reports free but the stored user plan is higher, the stored plan wins (§3). */
export function effectivePlan(reported: Plan, stored: Plan | null | undefined): Plan {
  if (reported === 'free' && stored && PLANS.indexOf(stored) > PLANS.indexOf(reported)) return stored;
  return reported;
}

export type UsageLevel = 'normal' | 'warning' | 'danger';

/** The share of a limit used, 0–1 (capped); an unlimited (null) or zero limit counts as 0. */
export function usageRatio(used: number, limit: number | null): number {
  if (limit === null || limit <= 0) return 0;
  return Math.min(1, Math.max(0, used / limit));
}

/** Warning from 70 % of the limit, danger from 90 %. */
export function usageLevel(used: number, limit: number | null): UsageLevel {
  const ratio = usageRatio(used, limit);
  if (ratio >= USAGE_DANGER_RATIO) return 'danger';
  if (ratio >= USAGE_WARNING_RATIO) return 'warning';
  return 'normal';
}
