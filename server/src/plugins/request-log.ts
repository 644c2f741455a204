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
 * The server's log: JSON lines on stdout at `level`. Lines written during one turn of the event
 * loop leave together in one write at its end (`setImmediate`): one syscall for every request the
 * turn answered, made on the main thread — no thread-pool hand-off per line, whose wake-ups and
 * context switches were most of what a request's log line cost (issue 14; before it, an
 * asynchronous write, and before that a blocking write per line, 13 % of `GET /chat/sessions`).
 * A line waits for nothing but the end of its turn, and what is pending is written when the
 * process exits.
 */
export function serverLogger(level: string): LoggerOptions & { stream: { write: (line: string) => void } } {
  return { level, stream: turnBatched(destination({ dest: 1, sync: true })) };
}

/** Pending lines of every batched destination, written on exit (one listener for all). */
const unflushed = new Set<() => void>();
let exitHook = false;

/** `out` written once per event-loop turn with every line the turn wrote, in order. */
export function turnBatched(out: { write: (text: string) => unknown }): { write: (line: string) => void } {
  let pending: string[] = [];
  const flush = () => {
    unflushed.delete(flush);
    if (pending.length === 0) return;
    const text = pending.length === 1 ? (pending[0] ?? '') : pending.join('');
    pending = [];
    out.write(text);
  };
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const write of unflushed) write();
    });
  }
  return {
    write(line) {
      pending.push(line);
      if (unflushed.has(flush)) return;
      unflushed.add(flush);
      setImmediate(flush);
    },
  };
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

/** The levels at which a probe's line is written. */
const DEBUG_LEVELS = new Set(['debug', 'trace']);

/** Load balancers and uptime checks poll these; a line per poll would drown the log. */
const PROBES = new Set(['/health']);

/**
 * Fastify's request logging, one line instead of two ("incoming request", "request completed"):
 * `request` when the response is sent — method, URL, status, milliseconds — at info, at error
 * for a response that failed, at debug for health probes answered (a probe refused is at info). Written by Fastify itself, no hook.
 * The URL is redacted (W-4): query values and emailed tokens never reach the log.
 */
class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const probe = !error && reply.statusCode < 400 && PROBES.has(request.url.split('?', 1)[0] ?? request.url);
    // A probe's line is not even built unless debug is on.
    if (probe && !DEBUG_LEVELS.has(reply.log.level)) return;
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else if (probe) reply.log.debug(line, 'request');
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
