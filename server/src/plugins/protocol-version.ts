import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, versionMismatch } from '@alma/protocol';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * SPEC.md P-1 on REST: a call whose `x-alma-protocol` header names another protocol version is
 * refused before any route runs, saying which side is old (`client_too_old` 426,
 * `server_too_old` 503). Calls without the header (curl, scripts, other tools) are not judged;
 * a value that is not a version number is not one the app's client sends, so it is ignored too.
 * `/health` always answers: it is where the client reads the server's version.
 */
export function registerProtocolVersionCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const given =
      request.url.split('?', 1)[0] === '/health' ? undefined : request.headers[PROTOCOL_VERSION_HEADER];
    const version = typeof given === 'string' && /^\d{1,6}$/.test(given) ? Number(given) : null;
    const mismatch = version === null ? null : versionMismatch(version, PROTOCOL_VERSION);
    done(
      mismatch
        ? new AppError(mismatch, { detail: `protocol ${version} against ${PROTOCOL_VERSION}` })
        : undefined,
    );
  });
}
