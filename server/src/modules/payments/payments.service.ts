import type { Subscription } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/ids.ts';
import type { UserRepository } from '../../storage/types.ts';
import { periodEnd } from '../plans/period.ts';

export const PAYMENT_ACTIONS = [
  'checkout',
  'billing_portal',
  'cancel',
  'reactivate',
  'billing_history',
] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

/**
 * Payments (spec §1, §7 Payments; SPEC.md L-5). Paid plans are in maintenance: there is no
 * payment provider, so every action is refused with `payments_maintenance`. The subscription
 * state is real: it is the plan stored on the user, which only an operator can raise.
 */
export function createPaymentsService(deps: { users: UserRepository; clock: Clock }) {
  return {
    async subscription(userId: string): Promise<Subscription> {
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError('not_found', { detail: `user ${userId}` });
      if (user.plan === 'free') {
        return { plan: 'free', isActive: true, isCanceled: false, currentPeriodEnd: null };
      }
      // A paid plan set by an operator runs month by month, like usage (L-2); nothing cancels it
      // while payments are in maintenance.
      return {
        plan: user.plan,
        isActive: true,
        isCanceled: false,
        currentPeriodEnd: periodEnd(deps.clock()).toISOString(),
      };
    },

    /**
     * Maintenance comes first, for every action and every user: `no_active_subscription` (a
     * free user cancelling) is not answered while nothing can be bought anyway.
     */
    async act(userId: string, action: PaymentAction): Promise<never> {
      throw new AppError('payments_maintenance', { detail: `${action} by ${userId}` });
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
