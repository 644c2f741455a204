import type { FastifyInstance, FastifyServerOptions } from 'fastify';
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

/**
 * Fastify options for request ids: the caller's `x-request-id` when it is a plain token, else a
 * fresh UUID. Fastify's own per-request logging (two lines, "incoming request" and "request
 * completed") is off; `registerRequestLog` writes one line instead.
 */
export const requestIdOptions = {
  genReqId: (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
  },
  disableRequestLogging: true,
} satisfies FastifyServerOptions;

/** Load balancers and uptime checks poll these; a line per poll would drown the log. */
const PROBES = new Set(['/health']);

/**
 * Every response carries its `x-request-id`; every request leaves one log line when it ends
 * (method, path, status, milliseconds) — at info, or at debug for health probes. Both hooks are
 * callback-style: no promise per request (issue 14: REST at near-bare cost).
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (PROBES.has(path)) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
    done();
  });
}
