import type { RouteDef, RouteParsed, RouteResponse } from '@alma/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.ts';
import { languageFromHeader } from '../lib/language.ts';
import { fieldErrors } from '../lib/validation.ts';

export interface RouteContext {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The authenticated user's id; only set for routes declared with `auth: true`. */
  userId: string;
  /**
   * Answers with a redirect instead of the route's JSON (a browser following an emailed link).
   * `reply.sent` cannot tell: with async onSend hooks the reply is still being written.
   */
  redirect: (url: string) => void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** One part of a request checked against its schema (none: nothing to read), or `validation_failed`. */
function parsePart(
  request: FastifyRequest,
  schema: z.ZodType | undefined,
  value: unknown,
  part: 'params' | 'query' | 'body',
): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // The caller's language is read only when there is something to say in it.
  const language = languageFromHeader(request.headers['accept-language']);
  throw new AppError('validation_failed', {
    fields: fieldErrors(result.error, language, part === 'body' ? undefined : part),
  });
}

/**
 * `make(key)` once per frozen key, frozen: a route answering `bodies(list)` for a list kept by its
 * repository answers the same frozen object while the list stands, so `registerRoute` checks and
 * serialises it once. A key that is not frozen (not kept) gets a fresh, unfrozen body each time.
 */
export function frozenBodies<K extends object, B extends object>(make: (key: K) => B): (key: K) => B {
  const bodies = new WeakMap<K, B>();
  return (key) => {
    if (!Object.isFrozen(key)) return make(key);
    let body = bodies.get(key);
    if (body === undefined) {
      body = Object.freeze(make(key));
      bodies.set(key, body);
    }
    return body;
  };
}

export type RouteHandler<D> = (input: RouteParsed<D>, ctx: RouteContext) => Promise<RouteResponse<D>>;

/**
 * Registers a protocol route: validates params, query and body with the route's schemas (bad
 * input → 400 `validation_failed` with the spec's field texts, nothing changed), authenticates
 * when the route says so, and parses the result with the response schema — which also strips
 * anything not declared (a password hash can never leak through a response).
 *
 * A handler may answer a frozen object it answered before (a kept answer: `/health` within its
 * max age, a session list whose version has not moved — see `frozenBodies`): that object was
 * checked and serialised the first time, and its JSON is sent again as it was (issue 14).
 */
export function registerRoute<D extends RouteDef>(
  app: FastifyInstance,
  route: D,
  handler: RouteHandler<D>,
  options: Pick<RouteShorthandOptions, 'config' | 'bodyLimit' | 'errorHandler'> = {},
): void {
  const urls = [route.path, ...(route.aliases ?? []).map((prefix) => `${prefix}${route.path}`)];
  /** Frozen answers → their checked JSON (shared by the route's aliases). */
  const serialised = new WeakMap<object, string>();
  const respond = (reply: FastifyReply, result: unknown): unknown => {
    if (typeof result !== 'object' || result === null || !Object.isFrozen(result)) {
      return route.response.parse(result);
    }
    let json = serialised.get(result);
    if (json === undefined) {
      json = JSON.stringify(route.response.parse(result));
      serialised.set(result, json);
    }
    void reply.type(JSON_TYPE);
    return json;
  };
  for (const url of urls) {
    app.route({
      method: route.method,
      url,
      ...options,
      preHandler: route.auth ? app.authenticate : undefined,
      handler: async (request, reply) => {
        const input = {
          params: parsePart(request, route.params, request.params, 'params'),
          query: parsePart(request, route.query, request.query, 'query'),
          body: parsePart(request, route.body, request.body ?? undefined, 'body'),
        } as RouteParsed<D>;
        let redirected = false;
        const redirect = (url: string): void => {
          redirected = true;
          void reply.redirect(url, 302);
        };
        const result = await handler(input, { request, reply, userId: request.userId ?? '', redirect });
        // A handler that answered by itself (a redirect for a browser) keeps its answer.
        if (redirected || reply.sent) return reply;
        void reply.code(route.status ?? 200);
        return respond(reply, result);
      },
    });
  }
}
