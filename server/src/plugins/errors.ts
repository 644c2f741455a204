import { errorMessage, type ErrorBody } from '@alma/protocol';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isAppError } from '../lib/app-error.ts';
import { languageFromHeader } from '../lib/language.ts';

/**
 * The one error handler: AppError → its status and `{ error: { code, message } }` in the caller's
 * language; framework 4xx (bad JSON, wrong content type, too large) → the matching code;
 * everything else → a generic 500 whose details stay in the log.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const language = languageFromHeader(request.headers['accept-language']);
    let status: number;
    let body: ErrorBody;
    if (isAppError(error)) {
      status = error.status;
      body = { code: error.code, message: errorMessage(language, error.code) };
      if (error.options.fields) body.errors = error.options.fields;
      if (error.options.retryAfterMs !== undefined) {
        body.retryAfterMs = error.options.retryAfterMs;
        void reply.header('retry-after', Math.ceil(error.options.retryAfterMs / 1000));
      }
    } else if (error.statusCode === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      body = { code: 'payload_too_large', message: errorMessage(language, 'payload_too_large') };
    } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode === 415 ? 415 : 400;
      body = { code: 'invalid_payload', message: errorMessage(language, 'invalid_payload') };
    } else {
      request.log.error({ err: error }, 'unhandled error');
      status = 500;
      body = { code: 'server_error', message: errorMessage(language, 'server_error') };
    }
    if (status < 500) request.log.info({ code: body.code, detail: error.message }, 'request failed');
    return reply.code(status).send({ error: body });
  });
}
