import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import { destination, type LoggerOptions } from 'pino';

/**
 * The server's log: JSON lines on stdout at `level`, written asynchronously — a line waits only
 * for the write before it, so lines written while one is in flight leave together in one write
 * instead of one blocking write each (a blocking write per request was 13 % of the CPU of
 * `GET /chat/sessions`; issue 14). Nothing is held back when the server is idle, and pino writes
 * what is pending when the process exits.
 */
export function serverLogger(level: string): LoggerOptions & { stream: ReturnType<typeof destination> } {
  return { level, stream: destination({ dest: 1, sync: false }) };
}

/** A caller's own request id is kept when it is a plain token (it ends up in our logs). */
const GIVEN_ID = /^[\w-]{1,64}$/;

const REDACTED = '[redacted]';

/**
 * Paths whose last segment is a secret: the API's reset and verification routes and the pages
 * the emailed links open (SPEC.md A-9).
 */
const TOKEN_PATH = /^((?:\/api)?\/auth\/(?:resetpassword|verifyemail)\/|\/reset-password\/)[^/?#]+/;

/**
 * A URL fit for the log (SPEC.md W-4): every query value is redacted — provider callbacks carry
 * tokens there (`/auth/callback?token=…&refreshToken=…`) — keeping the names, and so is the
 * token segment of reset and verification paths.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(TOKEN_PATH, `$1${REDACTED}`);
  if (queryAt === -1) return path;
  const names = url
    .slice(queryAt + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? pair.slice(0, 64) : `${pair.slice(0, Math.min(equals, 64))}=${REDACTED}`;
    });
  return `${path}?${names.join('&')}`;
}

/** Load balancers and uptime checks poll these; a line per poll would drown the log. */
const PROBES = new Set(['/health']);

/**
 * Fastify's request logging, one line instead of two ("incoming request", "request completed"):
 * `request` when the response is sent — method, URL, status, milliseconds — at info, at error
 * for a response that failed, at debug for health probes. Written by Fastify itself, no hook.
 * The URL is redacted (W-4): query values and emailed tokens never reach the log.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const path = request.url.split('?', 1)[0] ?? request.url;
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else if (PROBES.has(path)) reply.log.debug(line, 'request');
    else reply.log.info(line, 'request');
  }
}

/**
 * Fastify options for request ids and the request log: the caller's `x-request-id` when it is a
 * plain token, else a fresh UUID; one log line per request.
 */
export const requestLogOptions = {
  genReqId: (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
  },
  logController: new OneLineRequestLog(),
} satisfies FastifyServerOptions;

/** Every response carries its `x-request-id`; a callback-style hook, no promise per request. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
}
