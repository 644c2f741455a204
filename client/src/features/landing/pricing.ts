import type { Plan } from '@alma/protocol';

/** Spec §9 prices (free, standard / Pro, advanced / Enterprise); yearly carries the -17% badge. */
export const PRICES: Record<Plan, { monthly: number; yearly: number }> = {
  free: { monthly: 0, yearly: 0 },
  pro: { monthly: 9.99, yearly: 99.99 },
  enterprise: { monthly: 29.99, yearly: 299.99 },
};

export type Billing = 'monthly' | 'yearly';
