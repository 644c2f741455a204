import { errorMessage, type ErrorBody, type ErrorCode } from '@alma/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Duplex } from 'node:stream';
import { isAppError } from '../lib/app-error.ts';
import { languageFromHeader } from '../lib/language.ts';

/**
 * Does this route take a file? Multipart routes register @fastify/multipart in their own scope,
 * which gives their requests `isMultipart`; every other route has none (and refuses multipart).
 */
const takesMultipart = (request: FastifyRequest): boolean =>
  typeof (request as FastifyRequest & { isMultipart?: unknown }).isMultipart === 'function';

/**
 * A content type no parser of the route takes (Fastify's 415, before the handler): "send JSON" on
 * JSON routes, "send a form upload" on multipart ones (SPEC.md E-2).
 */
const wrongContentType = (request: FastifyRequest): ErrorCode =>
  takesMultipart(request) ? 'multipart_required' : 'unsupported_media_type';

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
    } else if (error.statusCode === 415) {
      status = 415;
      const code = wrongContentType(request);
      body = { code, message: errorMessage(language, code) };
    } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      status = 400;
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

/**
 * Errors Fastify raises before routing (a malformed URL, an over-long path parameter) get the
 * same body as everything else (`frameworkErrors` option), and the security headers that the
 * hooks they bypass would have added (SPEC.md W-1, W-3: never cached).
 */
export const frameworkErrorHandler =
  (headers: Readonly<Record<string, string>>) =>
  (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const language = languageFromHeader(request.headers['accept-language']);
    request.log.info({ code: error.code }, 'malformed request');
    void reply
      .headers({ ...headers, 'cache-control': 'no-store' })
      .code(400)
      .send({ error: { code: 'invalid_payload', message: errorMessage(language, 'invalid_payload') } });
  };

/**
 * Requests Node's HTTP parser rejects (headers or URL too large, garbage) never reach Fastify:
 * answer them on the raw socket, still in the one error shape (Spanish, the default language,
 * since the headers could not be read), with the security headers (SPEC.md W-1, W-3).
 */
export const clientErrorHandler =
  (headers: Readonly<Record<string, string>>) =>
  (error: Error & { code?: string }, socket: Duplex): void => {
    answerOnSocket(error, socket, headers);
  };

function answerOnSocket(
  error: Error & { code?: string },
  socket: Duplex,
  headers: Readonly<Record<string, string>>,
): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const code = tooLarge ? 'request_too_large' : 'invalid_payload';
  const body = JSON.stringify({ error: { code, message: errorMessage('es', code) } });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const extra = Object.entries({ ...headers, 'cache-control': 'no-store' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
