import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import type { UsersService } from './users.service.ts';

export function registerUsersRoutes(app: FastifyInstance, deps: { users: UsersService }): void {
  const { users } = deps;
  registerRoute(app, routes.account.getPreferences, async (_input, { userId }) => ({
    success: true as const,
    preferences: await users.getPreferences(userId),
  }));
  registerRoute(app, routes.account.updatePreferences, async ({ body }, { request, userId }) => ({
    success: true as const,
    preferences: await users.updatePreferences(
      userId,
      body,
      languageFromHeader(request.headers['accept-language']),
    ),
  }));
  registerRoute(app, routes.account.onboardingStatus, async (_input, { userId }) => ({
    success: true as const,
    onboardingCompleted: (await users.getPreferences(userId)).onboardingCompleted,
  }));
}
