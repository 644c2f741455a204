import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import type { PlansService } from './plans.service.ts';

/** Usage (spec §7 Auth: under /auth and /api/auth) and the subscription limits of spec §3. */
export function registerPlansRoutes(app: FastifyInstance, deps: { plans: PlansService }): void {
  const { plans } = deps;
  const r = routes.account;

  registerRoute(app, r.usage, async (_input, { userId }) => ({
    success: true as const,
    ...(await plans.summary(userId)),
  }));
  registerRoute(app, r.resetUsage, async ({ body }, { userId }) => {
    const reset = await plans.resetUsage(userId, body?.userId);
    return { success: true as const, userId: reset.userId, ...reset.summary };
  });
  registerRoute(app, r.subscriptionLimits, async (_input, { userId, request }) => ({
    success: true as const,
    subscription: await plans.subscriptionLimits(
      userId,
      languageFromHeader(request.headers['accept-language']),
    ),
  }));
}
