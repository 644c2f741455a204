import { routes } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { authRateLimit } from '../../plugins/security.ts';
import type { AuthService } from './auth.service.ts';

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: { auth: AuthService; rateLimitMax: number },
): void {
  const { auth } = deps;
  const limited = { config: authRateLimit(deps.rateLimitMax) };

  registerRoute(
    app,
    routes.auth.register,
    async ({ body }, { request }) => {
      const language = languageFromHeader(request.headers['accept-language']);
      const session = await auth.register({ ...body, language });
      const message = language === 'es' ? 'Cuenta creada correctamente' : 'Account created successfully';
      return { ...session, message };
    },
    limited,
  );
  registerRoute(
    app,
    routes.auth.login,
    async ({ body }, { request }) => auth.login(body.email, body.password, request.ip),
    limited,
  );
  registerRoute(app, routes.auth.refresh, async ({ body }) => auth.refresh(body.refreshToken), limited);
  registerRoute(app, routes.auth.me, async (_input, { userId }) => ({
    success: true as const,
    user: await auth.me(userId),
  }));
  registerRoute(app, routes.auth.logout, async ({ body }, { userId }) => {
    await auth.logout(userId, body?.refreshToken);
    return { success: true as const };
  });
}
