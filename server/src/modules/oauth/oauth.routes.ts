import { OAUTH_PROVIDERS, errorMessage, routes, type ErrorCode, type OAuthProvider } from '@alma/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import { isAppError } from '../../lib/app-error.ts';
import { languageFromHeader } from '../../lib/language.ts';
import { authRateLimit } from '../../plugins/security.ts';
import { failureDescription } from './oauth.messages.ts';
import { OAuthFlowError } from './oauth.providers.ts';
import type { OAuthService } from './oauth.service.ts';
import { FLOW_TTL_MS, isRandomToken, randomToken } from './oauth.state.ts';

/** The client page that receives every outcome (spec §2 "Outside-provider callback"). */
export const CALLBACK_PAGE = '/auth/callback';
/** Binds a sign-in to the browser that started it (SPEC.md O-2). */
export const BINDING_COOKIE = 'alma_oauth';

export interface OAuthRoutesDeps {
  oauth: OAuthService;
  rateLimitMax: number;
  /** Marks the binding cookie `Secure`; true when the app is served over https. */
  secureCookie: boolean;
}

/**
 * `GET /auth/{google,github}` starts a sign-in, `GET /auth/{provider}/callback` finishes it;
 * both under `/api` too. They are browser navigations, so every outcome — failures included —
 * is a 302 to the client's callback page, never a JSON error or a 500 (SPEC.md O-3).
 */
export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRoutesDeps): void {
  const { oauth } = deps;
  registerRoute(app, routes.account.providers, async () => oauth.configured());

  for (const provider of OAUTH_PROVIDERS) {
    for (const prefix of ['', '/api']) {
      app.get(
        `${prefix}/auth/${provider}`,
        { config: authRateLimit(deps.rateLimitMax) },
        async (request, reply) => {
          // One binding per browser, reused, so two tabs signing in at once do not undo each other.
          const binding = readBinding(request) ?? randomToken();
          try {
            const location = await oauth.start(provider, binding);
            void reply.header('set-cookie', bindingCookie(binding, deps.secureCookie));
            return await redirect(reply, location);
          } catch (error) {
            return failed(request, reply, provider, error);
          }
        },
      );

      app.get(`${prefix}/auth/${provider}/callback`, async (request, reply) => {
        const query = (request.query ?? {}) as Record<string, unknown>;
        // A repeated parameter arrives as an array: treated as absent, so the flow fails cleanly.
        const param = (name: string) => {
          const value = query[name];
          return typeof value === 'string' && value.length > 0 && value.length <= 2048 ? value : undefined;
        };
        try {
          const { session, isNewUser } = await oauth.finish(
            provider,
            {
              code: param('code'),
              state: param('state'),
              error: param('error'),
              errorDescription: param('error_description'),
            },
            readBinding(request),
            languageFromHeader(request.headers['accept-language']),
          );
          return await redirect(
            reply,
            callbackPage({
              token: session.token,
              refreshToken: session.refreshToken,
              provider,
              isNewUser: String(isNewUser),
            }),
          );
        } catch (error) {
          return failed(request, reply, provider, error);
        }
      });
    }
  }
}

function failed(request: FastifyRequest, reply: FastifyReply, provider: OAuthProvider, error: unknown) {
  const language = languageFromHeader(request.headers['accept-language']);
  let code: ErrorCode = 'oauth_failed';
  let description: string;
  if (isAppError(error) && error.code === 'oauth_not_configured') {
    code = 'oauth_not_configured';
    description = errorMessage(language, code);
    request.log.info({ provider }, 'oauth: provider not configured');
  } else if (error instanceof OAuthFlowError) {
    description = failureDescription(language, error.reason, provider);
    request.log.warn({ provider, reason: error.reason, detail: error.detail }, 'oauth: sign-in failed');
  } else {
    description = failureDescription(language, 'unexpected', provider);
    request.log.error({ err: error, provider }, 'oauth: sign-in failed unexpectedly');
  }
  return redirect(reply, callbackPage({ error: code, error_description: description, provider }));
}

function callbackPage(params: Record<string, string>): string {
  return `${CALLBACK_PAGE}?${new URLSearchParams(params).toString()}`;
}

async function redirect(reply: FastifyReply, location: string) {
  // The final URL carries tokens: keep it out of caches (W-3; the security headers send no Referer, W-1).
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}

function readBinding(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === BINDING_COOKIE && value && isRandomToken(value)) return value;
  }
  return undefined;
}

/** httpOnly, and SameSite=Lax so it rides along the provider's top-level redirect back to us. */
function bindingCookie(binding: string, secure: boolean): string {
  const attributes = [
    `${BINDING_COOKIE}=${binding}`,
    'Path=/',
    `Max-Age=${FLOW_TTL_MS / 1000}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}
