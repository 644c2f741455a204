import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import type { PaymentsService } from './payments.service.ts';

/** The payment routes of spec §7: every action answers 503 `payments_maintenance` (SPEC.md L-5). */
export function registerPaymentRoutes(app: FastifyInstance, deps: { payments: PaymentsService }): void {
  const { payments } = deps;
  const r = routes.payment;

  registerRoute(app, r.subscription, async (_input, { userId }) => ({
    success: true as const,
    subscription: await payments.subscription(userId),
  }));
  registerRoute(app, r.createCheckoutSession, (_input, { userId }) => payments.act(userId, 'checkout'));
  registerRoute(app, r.createBillingPortalSession, (_input, { userId }) =>
    payments.act(userId, 'billing_portal'),
  );
  registerRoute(app, r.cancelSubscription, (_input, { userId }) => payments.act(userId, 'cancel'));
  registerRoute(app, r.reactivateSubscription, (_input, { userId }) => payments.act(userId, 'reactivate'));
  registerRoute(app, r.billingHistory, (_input, { userId }) => payments.act(userId, 'billing_history'));
}
