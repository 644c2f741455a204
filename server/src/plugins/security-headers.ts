import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { AppError } from '../lib/app-error.ts';

/** HSTS, sent only on responses that went out over https (SPEC.md W-2). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The `ws:`/`wss:` origins of the app's own http(s) origins: what the page's socket connects to.
 * CSP 3 lets `'self'` cover them, but not every browser does yet, so they are listed by name.
 */
function socketOrigins(origins: readonly string[]): string[] {
  const out = new Set<string>();
  for (const origin of origins) {
    try {
      const url = new URL(origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      out.add(`${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`);
    } catch {
      // Not a URL: config validation refuses these; nothing to list.
    }
  }
  return [...out];
}

/**
 * The content security policy (SPEC.md W-1). `connect-src` lists only the app's own origins —
 * never any `ws:`/`wss:` host — plus `blob:` (how three.js's GLTFLoader reads a .glb's embedded
 * images; decoder workers start from blob: URLs and fetch their wasm from 'self').
 */
export function contentSecurityPolicy(appUrl: string): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'font-src': ["'self'", 'https:', 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'object-src': ["'none'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'media-src': ["'self'", 'data:', 'blob:'],
    'connect-src': ["'self'", 'blob:', ...socketOrigins([appUrl])],
    'worker-src': ["'self'", 'blob:'],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join(';');
}

/**
 * Every response's security headers (helmet's defaults, minus HSTS), computed once when the app
 * starts rather than per request (issue 14 "REST at near-bare cost").
 */
export function securityHeaders(appUrl: string): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': contentSecurityPolicy(appUrl),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * The KTX2 (Basis) transcoder's worker script (client/public/decoders/basis-worker.js). Its
 * transcoder is an Emscripten/embind build that compiles its bindings with `new Function`; a
 * worker started from a URL runs under the policy sent with that script, so eval is allowed in
 * this one worker (no DOM, no network: the wasm is posted to it) and nowhere else. It runs the
 * worker body three.js builds as a blob: URL.
 */
export const BASIS_WORKER_PATH = '/decoders/basis-worker.js';
export const BASIS_WORKER_CSP =
  "default-src 'none'; script-src 'self' blob: 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'none'";

/** Auth answers carry tokens: never stored by a browser or a proxy (SPEC.md W-3). */
const isAuthPath = (url: string): boolean => /^\/(?:api\/)?auth(?:\/|\?|$)/.test(url);

/**
 * Adds the precomputed headers to every response and refuses a Host that is not the app's
 * (421 `misdirected_request`); HSTS only when the request came over https
 * (directly or, with TRUST_PROXY, as the proxy says), `Cache-Control: no-store` on auth routes.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  opts: { appUrl: string; allowedHosts: readonly string[] },
): void {
  const headers = securityHeaders(opts.appUrl);
  const allowed = hostCheck(opts.appUrl, opts.allowedHosts);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headers);
    if (request.url.split('?', 1)[0] === BASIS_WORKER_PATH) {
      void reply.header('content-security-policy', BASIS_WORKER_CSP);
    }
    if (!allowed(request.host, request.protocol)) {
      done(new AppError('misdirected_request', { detail: `Host ${request.host.slice(0, 100)}` }));
      return;
    }
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    if (isAuthPath(request.url)) void reply.header('cache-control', 'no-store');
    done();
  });
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `host[:port]` without the scheme's default port, lower case. */
function normalHost(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  const port = protocol === 'https' ? ':443' : ':80';
  return lower.endsWith(port) ? lower.slice(0, -port.length) : lower;
}

/**
 * Whether a request's Host names this app (SPEC.md W-5): the configured app URL's host, one of
 * ALLOWED_HOSTS, or a loopback name on any port (local runs, health probes, a dev proxy). Anything else — a
 * DNS-rebinding page, a forged Host meant to poison links — is refused.
 */
export function hostAllowed(
  host: string | undefined,
  protocol: string,
  appUrl: string,
  allowedHosts: readonly string[] = [],
): boolean {
  return hostCheck(appUrl, allowedHosts)(host, protocol);
}

/** `hostAllowed` with the app's host worked out once. */
function hostCheck(
  appUrl: string,
  allowedHosts: readonly string[],
): (host: string | undefined, protocol: string) => boolean {
  const app = new URL(appUrl);
  const appHost = normalHost(app.host, app.protocol.replace(':', ''));
  const extra = new Set(allowedHosts);
  return (host, protocol) => {
    if (!host) return false;
    const normal = normalHost(host, protocol);
    const name = normal.startsWith('[') ? normal.slice(0, normal.indexOf(']') + 1) : normal.split(':')[0];
    if (name !== undefined && LOOPBACK.has(name)) return true;
    return normal === appHost || extra.has(normal);
  };
}

/**
 * The same Host rule for the socket.io handshake (SPEC.md W-5), which bypasses Fastify's hooks:
 * reads `X-Forwarded-Host`/`-Proto` only with TRUST_PROXY, as Fastify does for requests.
 */
export function handshakeHostCheck(opts: {
  appUrl: string;
  allowedHosts: readonly string[];
  trustProxy: boolean;
}): (req: IncomingMessage) => boolean {
  const allowed = hostCheck(opts.appUrl, opts.allowedHosts);
  const first = (value: string | string[] | undefined) =>
    (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
  return (req) => {
    const forwardedHost = opts.trustProxy ? first(req.headers['x-forwarded-host']) : undefined;
    const forwardedProto = opts.trustProxy ? first(req.headers['x-forwarded-proto']) : undefined;
    const encrypted = 'encrypted' in req.socket && req.socket.encrypted === true;
    return allowed(forwardedHost ?? req.headers.host, forwardedProto ?? (encrypted ? 'https' : 'http'));
  };
}
