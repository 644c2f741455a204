import { routes, type Language } from '@alma/protocol';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { authRateLimit } from '../../plugins/security.ts';
import type { AccountService } from './account.service.ts';

const TEXTS: Record<Language, { forgot: string; verified: string }> = {
  en: {
    forgot: 'If an account exists for this email, we have sent it a link to reset the password.',
    verified: 'Your email has been verified.',
  },
  es: {
    forgot: 'Si existe una cuenta con este email, le hemos enviado un enlace para restablecer la contraseña.',
    verified: 'Tu email ha sido verificado.',
  },
};

/** A browser opening the emailed link gets a page, not JSON. */
const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/** Profile, password and emailed links (SPEC.md ); all under /auth and /api/auth. */
export function registerAccountRoutes(
  app: FastifyInstance,
  deps: { account: AccountService; rateLimitMax: number },
): void {
  const { account } = deps;
  const limited = { config: authRateLimit(deps.rateLimitMax) };
  const language = (request: FastifyRequest) => languageFromHeader(request.headers['accept-language']);

  registerRoute(app, routes.account.updateDetails, async ({ body }, { userId }) => ({
    success: true as const,
    user: await account.updateDetails(userId, body),
  }));
  registerRoute(
    app,
    routes.account.updatePassword,
    async ({ body }, { userId, request }) =>
      account.updatePassword(userId, body, request.ip, request.sessionFamilyId),
    limited,
  );
  registerRoute(
    app,
    routes.account.forgotPassword,
    async ({ body }, { request }) => {
      await account.forgotPassword(body.email);
      return { success: true as const, message: TEXTS[language(request)].forgot };
    },
    limited,
  );
  registerRoute(
    app,
    routes.account.resetPassword,
    async ({ params, body }) => account.resetPassword(params.resetToken, body.password),
    limited,
  );

  const defaultErrorHandler = app.errorHandler;
  registerRoute(
    app,
    routes.account.verifyEmail,
    async ({ params }, { request, redirect }) => {
      await account.verifyEmail(params.verifyToken);
      if (wantsHtml(request)) redirect('/login?verified=1');
      return { success: true as const, message: TEXTS[language(request)].verified };
    },
    {
      ...limited,
      errorHandler: (error: FastifyError, request, reply): void => {
        if (wantsHtml(request)) void reply.redirect('/login?verified=0', 302);
        else defaultErrorHandler(error, request, reply);
      },
    },
  );
}
