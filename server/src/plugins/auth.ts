import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

export interface AccessTokenClaims {
  sub: string;
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
    /** Verifies an access token outside a request (socket handshakes). */
    verifyAccessToken: (token: string) => AccessTokenClaims;
  }
  interface FastifyRequest {
    userId?: string;
  }
}

/**
 * Bearer access tokens (short-lived JWTs). An expired token answers `token_expired` so clients
 * know to refresh; anything else wrong answers `unauthorized`.
 */
export const authPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { secret: string; accessTokenTtlS: number; userExists: (id: string) => Promise<boolean> },
  ) => {
    await app.register(fastifyJwt, { secret: opts.secret, sign: { expiresIn: opts.accessTokenTtlS } });

    const mapError = (error: unknown): AppError => {
      const code = (error as { code?: string }).code ?? '';
      return new AppError(code.includes('EXPIRED') ? 'token_expired' : 'unauthorized');
    };

    app.decorateRequest('userId', undefined);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      try {
        const claims = await request.jwtVerify<AccessTokenClaims>();
        if (typeof claims.sub !== 'string') throw new AppError('unauthorized');
        // A valid signature is not enough: the account may have been deleted since.
        if (!(await opts.userExists(claims.sub))) throw new AppError('unauthorized');
        request.userId = claims.sub;
      } catch (error) {
        throw error instanceof AppError ? error : mapError(error);
      }
    });
    app.decorate('verifyAccessToken', (token: string): AccessTokenClaims => {
      try {
        const claims = app.jwt.verify<AccessTokenClaims>(token);
        if (typeof claims.sub !== 'string') throw new AppError('unauthorized');
        return claims;
      } catch (error) {
        throw error instanceof AppError ? error : mapError(error);
      }
    });
  },
);
