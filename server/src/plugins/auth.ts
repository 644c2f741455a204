import fastifyJwt from '@fastify/jwt';
import type { SessionEndCode } from '@alma/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import type { SessionClaims } from '../modules/auth/revocation.ts';

export interface AccessTokenClaims extends SessionClaims {
  role: 'user' | 'admin';
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenClaims;
    user: AccessTokenClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** Verifies an access token outside a request (socket handshakes); revocation not included. */
    verifyAccessToken: (token: string) => AccessTokenClaims;
  }
  interface FastifyRequest {
    userId?: string;
    /** The refresh-token family of the access token: this sign-in (SPEC.md A-12). */
    sessionFamilyId?: string;
  }
}

/** Verified access tokens remembered at once (each a few hundred bytes). */
const VERIFIED_TOKENS = 20_000;

/** A signed token from before A-12, or one missing a claim, is not a session. */
function sessionClaims(claims: Partial<AccessTokenClaims>): AccessTokenClaims {
  const { sub, sid, tv, role } = claims;
  if (typeof sub !== 'string' || typeof sid !== 'string' || !Number.isInteger(tv) || (tv as number) < 0) {
    throw new AppError('unauthorized');
  }
  return { sub, sid, tv: tv as number, role: role === 'admin' ? 'admin' : 'user' };
}

/** The token of `Authorization: Bearer <token>`; anything else is `unauthorized`. */
function bearerToken(header: string | undefined): string {
  const [scheme, token, ...rest] = header?.split(' ') ?? [];
  if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) throw new AppError('unauthorized');
  return token;
}

/**
 * Bearer access tokens (short-lived JWTs). An expired token answers `token_expired` so clients
 * know to refresh; a revoked one says why (`signed_out`, `password_changed`, `session_revoked`;
 * SPEC.md A-12); anything else `unauthorized`.
 */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      secret: string;
      accessTokenTtlS: number;
      /** Why the token's session ended (signed out, password changed…), or null while it stands. */
      ended: (claims: SessionClaims) => Promise<SessionEndCode | null>;
    },
  ) => {
    await app.register(fastifyJwt, {
      secret: opts.secret,
      sign: { expiresIn: opts.accessTokenTtlS },
    });

    const mapError = (error: unknown): AppError => {
      if (error instanceof AppError) return error;
      const code = (error as { code?: string }).code ?? '';
      return new AppError(code.includes('EXPIRED') ? 'token_expired' : 'unauthorized');
    };

    app.decorateRequest('userId', undefined);
    app.decorateRequest('sessionFamilyId', undefined);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const claims = app.verifyAccessToken(bearerToken(request.headers.authorization));
      const ended = await opts.ended(claims);
      if (ended !== null) throw new AppError(ended);
      request.userId = claims.sub;
      request.sessionFamilyId = claims.sid;
    });
    // A token's signature and claims are checked once and its claims remembered, by the token
    // itself, until it expires: the same token on every request costs a map lookup, not an HMAC,
    // a JSON parse (nor the hash fast-jwt's own cache keys by; issue 14). Whether the session
    // still stands is asked on every request all the same (`ended`), so revocation stays immediate.
    const verified = new Map<string, { claims: AccessTokenClaims; expiresAtMs: number }>();
    app.decorate('verifyAccessToken', (token: string): AccessTokenClaims => {
      const known = verified.get(token);
      if (known !== undefined) {
        if (Date.now() < known.expiresAtMs) return known.claims;
        verified.delete(token);
      }
      try {
        const payload = app.jwt.verify<AccessTokenClaims & { exp?: number }>(token);
        const claims = Object.freeze(sessionClaims(payload));
        if (typeof payload.exp === 'number') {
          verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
          // The oldest first: tokens are short-lived, and a dropped one is only verified again.
          if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value as string);
        }
        return claims;
      } catch (error) {
        throw mapError(error);
      }
    });
  },
);
