import {
  API_RETRY_BASE_DELAY_MS,
  API_RETRY_COUNT,
  ApiErrorSchema,
  buildPath,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_HEADER,
  SessionEndCodeSchema,
  routes,
  type ErrorCode,
  type FieldError,
  type RouteDef,
  type RouteInput,
  type RouteResponse,
  type SessionEndCode,
  type VersionMismatch,
} from '@alma/protocol';
import { currentLanguage, i18n } from './i18n.ts';
import { useConnection } from './realtime.ts';
import { useSession } from './session.ts';

/** What a caller passes for a route (protocol's `RouteInput`). */
export type CallInput<D> = RouteInput<D>;

/** Codes the client adds to the protocol's: no answer at all, or an answer we cannot read. */
export type ClientErrorCode = 'network_error' | 'invalid_response' | 'timeout';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode | ClientErrorCode;
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly fieldErrors: FieldError[];
  readonly retryAfterMs: number | undefined;

  constructor(init: {
    code: ErrorCode | ClientErrorCode;
    message: string;
    status: number;
    fieldErrors?: FieldError[];
    retryAfterMs?: number;
  }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterMs = init.retryAfterMs;
  }

  get isNetworkError(): boolean {
    return this.code === 'network_error' || this.code === 'timeout';
  }

  /** Spec §8 "Server error body": "field: message" pairs joined by commas, else the message. */
  get displayMessage(): string {
    if (this.fieldErrors.length > 0) {
      return this.fieldErrors.map((e) => `${e.field}: ${e.message}`).join(', ');
    }
    return this.message;
  }
}

/** Translates the client's own error texts (connection failure, unreadable answer, timeout). */
export type ClientText = (
  key: 'errors.connectionFailed' | 'errors.requestFailed' | 'errors.timeout',
) => string;

/**
 * A refused answer as an ApiError: the server's `{ error: { code, message, errors? } }` (spec §8),
 * or, when the body is not that (a proxy page, an empty body), a generic one by status. Every
 * request the client makes reads its failures here, JSON calls and multipart uploads alike.
 */
export async function errorFrom(response: Response, text: ClientText): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: fall through to the generic text.
  }
  const parsed = ApiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { code, message, errors, retryAfterMs } = parsed.data.error;
    return new ApiError({ code, message, status: response.status, fieldErrors: errors, retryAfterMs });
  }
  return new ApiError({
    code: response.status >= 500 ? 'server_error' : 'invalid_response',
    message: text('errors.requestFailed'),
    status: response.status,
  });
}

/** An accepted answer validated against the route's response schema (`invalid_response` if not). */
export async function parseSuccess<D extends RouteDef>(
  route: D,
  response: Response,
  text: ClientText,
): Promise<RouteResponse<D>> {
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  const parsed = route.response.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({
      code: 'invalid_response',
      message: text('errors.requestFailed'),
      status: response.status,
    });
  }
  return parsed.data as RouteResponse<D>;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  getToken: () => string | null;
  getRefreshToken: () => string | null;
  /** Called with rotated tokens after a successful refresh (always store the new refresh token). */
  onRefreshed: (session: RouteResponse<typeof routes.auth.refresh>) => void;
  /**
   * Called when a refresh fails: the stored auth data is no longer usable. `ended` is set when
   * the server had said the session was revoked (SPEC.md A-12), so the sign-in page says so.
   */
  onAuthLost: (ended?: SessionEndCode) => void;
  /**
   * Runs a refresh while holding a lock every tab of this origin shares (Web Locks), so tabs
   * take turns. Without it (tests, old browsers) the server's grace window covers the race.
   */
  crossTabLock?: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Re-reads the session another tab may have stored meanwhile (a rotation, a sign-out), so
   * `getToken`/`getRefreshToken` see it at once, before its storage event arrives.
   */
  reloadShared?: () => void;
  getLanguage: () => string;
  text: ClientText;
  /** Told when the server refuses a call for the protocol version (SPEC.md P-1). */
  onVersionMismatch?: (mismatch: VersionMismatch) => void;
  sleep?: (ms: number) => Promise<void>;
  baseUrl?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Use this access token instead of the stored one (logout, after local auth data is cleared). */
  token?: string;
  /** Let the request outlive the page (fetch keepalive), for a logout just before navigating. */
  keepalive?: boolean;
  /** Aborts the request after this many ms and throws `timeout` (no retry). */
  timeoutMs?: number;
}

/**
 * Whether an error answer is the server refusing the credentials themselves (400 a malformed
 * token, 401, 403) — not a rate limit, a version mismatch (426), a server error or a proxy's
 * 502 while an instance restarts, which say nothing about them.
 */
export const judgesToken = (status: number): boolean => status === 400 || status === 401 || status === 403;

/** A refresh holds every tab's lock: it must end even on a stalled network. */
const REFRESH_TIMEOUT_MS = 20_000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(deps: ApiClientDeps) {
  const sleep = deps.sleep ?? defaultSleep;
  const baseUrl = deps.baseUrl ?? '';
  let refreshing: Promise<boolean> | null = null;

  function urlFor(route: RouteDef, input: { params?: unknown; query?: unknown }): string {
    const path = buildPath(route.path, input.params as Record<string, unknown> | undefined);
    const query = new URLSearchParams();
    if (input.query && typeof input.query === 'object') {
      for (const [key, value] of Object.entries(input.query)) {
        if (value !== undefined && value !== null) query.set(key, String(value));
      }
    }
    const qs = query.toString();
    return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /**
   * One fetch with the spec's retry policy (§7): a network failure — no response at all — is
   * retried up to API_RETRY_COUNT times after 1 s, then 2 s. HTTP errors are never retried here.
   */
  async function fetchWithRetry(url: string, init: RequestInit, options: CallOptions): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(options.signal?.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer =
        options.timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = true;
              controller.abort();
            }, options.timeoutMs);
      try {
        return await deps.fetch(url, { ...init, signal: controller.signal });
      } catch (error) {
        if (timedOut) {
          throw new ApiError({ code: 'timeout', message: deps.text('errors.timeout'), status: 0 });
        }
        if (options.signal?.aborted) throw error;
        if (attempt >= API_RETRY_COUNT) {
          throw new ApiError({
            code: 'network_error',
            message: deps.text('errors.connectionFailed'),
            status: 0,
          });
        }
        await sleep(API_RETRY_BASE_DELAY_MS * (attempt + 1));
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /** The error code of a refused answer, read from a copy so the answer can still be thrown. */
  async function codeOf(response: Response): Promise<ErrorCode | undefined> {
    const parsed = ApiErrorSchema.safeParse(
      await response
        .clone()
        .json()
        .catch(() => null),
    );
    return parsed.success ? parsed.data.error.code : undefined;
  }

  async function request<D extends RouteDef>(
    route: D,
    input: CallInput<D>,
    options: CallOptions,
    token: string | null,
  ): Promise<Response> {
    const { params, query, body } = input as { params?: unknown; query?: unknown; body?: unknown };
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': deps.getLanguage(),
      [PROTOCOL_VERSION_HEADER]: String(PROTOCOL_VERSION),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (route.auth && token) headers.Authorization = `Bearer ${token}`;
    return fetchWithRetry(
      urlFor(route, { params, query }),
      {
        method: route.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        ...(options.keepalive ? { keepalive: true } : {}),
      },
      options,
    );
  }

  /**
   * Trades the refresh token for a new pair (SPEC.md A-3). Refresh tokens rotate and a stale one
   * presented after the server's grace window revokes the whole sign-in, so one refresh runs at
   * a time across every tab: callers in this tab share one request, other tabs wait for the
   * lock and then find the pair this one stored. Resolves false (and drops the auth data) when
   * the refresh is refused.
   */
  function refreshSession(cause?: ErrorCode | ClientErrorCode): Promise<boolean> {
    if (refreshing) return refreshing;
    const parsedCause = SessionEndCodeSchema.safeParse(cause);
    const ended = parsedCause.success ? parsedCause.data : undefined;
    const presented = deps.getRefreshToken();
    if (!presented) return Promise.resolve(false);
    const lock = deps.crossTabLock ?? ((work) => work());
    refreshing = lock(async () => {
      deps.reloadShared?.();
      const refreshToken = deps.getRefreshToken();
      // Signed out in another tab, or refreshed there while this one waited: nothing to send.
      if (!refreshToken) return false;
      if (refreshToken !== presented) return true;
      try {
        const response = await request(
          routes.auth.refresh,
          { body: { refreshToken } },
          { timeoutMs: REFRESH_TIMEOUT_MS },
          null,
        );
        if (!response.ok) {
          // Only the server's judgement of the token ends the sign-in. A rate limit, a server
          // error or a proxy's 502 while an instance restarts says nothing about it: the tokens
          // stay for the next attempt, as on a network failure.
          if (judgesToken(response.status)) deps.onAuthLost(ended);
          return false;
        }
        deps.onRefreshed(await parseSuccess(routes.auth.refresh, response, deps.text));
        return true;
      } catch (error) {
        // A network failure says nothing about the tokens; keep them for the next attempt.
        if (!(error instanceof ApiError && error.isNetworkError)) deps.onAuthLost(ended);
        return false;
      }
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  /**
   * Calls one protocol route: typed input, success parsed with `route.response`, failures thrown
   * as ApiError. A 401 on an authenticated call triggers one refresh and one retry (spec §4).
   */
  async function call<D extends RouteDef>(
    route: D,
    input: CallInput<D>,
    options: CallOptions = {},
  ): Promise<RouteResponse<D>> {
    return parseSuccess(route, await respond(route, input, options), deps.text);
  }

  /** A successful response, after at most one refresh on a 401; failures thrown as ApiError. */
  async function respond<D extends RouteDef>(
    route: D,
    input: CallInput<D>,
    options: CallOptions,
  ): Promise<Response> {
    const token = options.token ?? deps.getToken();
    let response = await request(route, input, options, token);
    if (response.status === 401 && route.auth && options.token === undefined && deps.getRefreshToken()) {
      // Another call may have refreshed while this one was in flight.
      const current = deps.getToken();
      const refreshed =
        current !== null && current !== token ? true : await refreshSession(await codeOf(response));
      if (refreshed) response = await request(route, input, options, deps.getToken());
    }
    if (!response.ok) {
      const error = await errorFrom(response, deps.text);
      if (error.code === 'client_too_old' || error.code === 'server_too_old') {
        deps.onVersionMismatch?.(error.code);
      }
      throw error;
    }
    return response;
  }

  /**
   * Calls a route that answers a file (`Content-Disposition: attachment`), with the same bearer
   * credential, refresh and retry rules as `call`, and hands back the bytes exactly as sent.
   */
  async function download<D extends RouteDef>(
    route: D,
    input: CallInput<D>,
    options: CallOptions = {},
  ): Promise<{ blob: Blob; filename: string | null }> {
    const response = await respond(route, input, options);
    return {
      blob: await response.blob(),
      filename: filenameFrom(response.headers.get('content-disposition')),
    };
  }

  return { call, download, refreshSession };
}

/** The app's client, wired to the session store and i18n. */
export const api = createApiClient({
  fetch: (...args) => fetch(...args),
  getToken: () => useSession.getState().token,
  getRefreshToken: () => useSession.getState().refreshToken,
  onRefreshed: ({ token, refreshToken, user }) =>
    useSession.getState().setSession({ token, refreshToken, user }),
  onAuthLost: (ended) => useSession.getState().clear(ended),
  crossTabLock: (work) =>
    typeof navigator !== 'undefined' && 'locks' in navigator
      ? navigator.locks.request('alma:refresh', work)
      : work(),
  reloadShared: () => useSession.getState().reload(),
  getLanguage: () => currentLanguage(),
  onVersionMismatch: (protocolMismatch) => useConnection.setState({ protocolMismatch }),
  text: (key) => i18n.t(key),
});

export const call = api.call;
export const download = api.download;

/** The file name of a `Content-Disposition` header (`filename="…"` or `filename=…`), if any. */
export function filenameFrom(header: string | null): string | null {
  if (!header) return null;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match?.[1] ? decodeURIComponent(match[1].trim()) : null;
}

/** A localized text for any failure, for alerts and error cards. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.displayMessage || fallback;
  return fallback;
}
