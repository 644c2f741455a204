import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';

/**
 * One REST call of spec §7, declared once. The server registers it (validating params, query and
 * body with these schemas), the client calls it through `call(route, input)`, tests use the same.
 * Paths use `:name` parameters; `aliases` are extra prefixes the same handler answers under
 * (auth routes live under both `/auth` and `/api/auth`).
 */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly aliases?: readonly string[];
  /** True when the call needs the bearer access token. */
  readonly auth: boolean;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** The success body; 2xx only. Errors are always `ApiErrorSchema`. */
  readonly response: R;
  /** HTTP status of success (200 unless stated). */
  readonly status?: number;
}

export function defineRoute<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodType,
>(def: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return def;
}

/** A part the route does not declare must be absent; an optional part (all fields optional) may be. */
type Field<S extends z.ZodType, K extends string> = S extends z.ZodUndefined
  ? { [_ in K]?: never }
  : undefined extends z.input<S>
    ? { [_ in K]?: z.input<S> }
    : { [_ in K]: z.input<S> };

/** What a caller passes: the inputs (before defaults and transforms) of the declared parts. */
export type RouteInput<D> =
  D extends RouteDef<infer P, infer Q, infer B, z.ZodType>
    ? Field<P, 'params'> & Field<Q, 'query'> & Field<B, 'body'>
    : never;

/** What a handler receives: the parsed outputs. */
export type RouteParsed<D> =
  D extends RouteDef<infer P, infer Q, infer B, z.ZodType>
    ? { params: z.output<P>; query: z.output<Q>; body: z.output<B> }
    : never;

export type RouteResponse<D> =
  D extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Fills `:name` parameters; values are URI-encoded. */
export function buildPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    // Path parameters are ids (strings) by their schemas; String() is for the odd number.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return encodeURIComponent(String(value));
  });
}
