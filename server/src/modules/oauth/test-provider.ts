import { OAuth2Server, type MutableRedirectUri, type MutableResponse } from 'oauth2-mock-server';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Test-only authorization servers on loopback, standing in for Google and GitHub, which the tests
 * cannot reach. Each is a real OAuth 2.0 server from `oauth2-mock-server` (authorize → code,
 * token endpoint that checks the PKCE code_verifier against the stored S256 challenge) made
 * strict through its documented hooks the way the real providers are: the client id and secret,
 * the registered redirect URI (exact match), PKCE S256 required, a code works once and only with
 * the redirect URI it was issued for, and the user endpoints answer only the access token issued
 * for that code. The GitHub flavour speaks GitHub's shapes: `/login/oauth/*` paths, an opaque
 * token, errors as a 200 with an `error` field, and the `/user` + `/user/emails` REST API.
 */

export interface ProviderAccount {
  /** Google's `sub` or GitHub's numeric id. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  /** GitHub only. */
  login?: string;
}

export interface TestProvider {
  readonly flavour: 'google' | 'github';
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The env that points Alma at this server. */
  env(appUrl: string): Record<string, string>;
  /** Who approves the next authorization requests. */
  account: ProviderAccount;
  /** Next authorization: the person declines (`error=access_denied`). */
  denyNext: boolean;
  /** Next token request: the endpoint fails with a 503. */
  failTokenNext: boolean;
  /** Every token request's form body, for assertions (PKCE, client credentials). */
  readonly tokenRequests: Array<Record<string, string>>;
  close(): Promise<void>;
}

interface Grant {
  account: ProviderAccount;
  redirectUri: string;
  used: boolean;
}

const opaque = () => randomBytes(20).toString('hex');

export async function startTestProvider(flavour: 'google' | 'github'): Promise<TestProvider> {
  const server = new OAuth2Server(
    undefined,
    undefined,
    flavour === 'github'
      ? { endpoints: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token' } }
      : undefined,
  );
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = `http://127.0.0.1:${server.address().port}`;
  const clientId = `${flavour}-client-${opaque().slice(0, 8)}`;
  const clientSecret = opaque();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, ProviderAccount>();
  const registeredRedirectUris = new Set<string>();

  const provider: TestProvider = {
    flavour,
    url,
    clientId,
    clientSecret,
    env(appUrl) {
      registeredRedirectUris.add(`${appUrl}/auth/${flavour}/callback`);
      const P = flavour.toUpperCase();
      return {
        [`${P}_CLIENT_ID`]: clientId,
        [`${P}_CLIENT_SECRET`]: clientSecret,
        ...(flavour === 'google'
          ? {
              GOOGLE_AUTHORIZE_URL: `${url}/authorize`,
              GOOGLE_TOKEN_URL: `${url}/token`,
              GOOGLE_USERINFO_URL: `${url}/userinfo`,
            }
          : {
              GITHUB_AUTHORIZE_URL: `${url}/login/oauth/authorize`,
              GITHUB_TOKEN_URL: `${url}/login/oauth/access_token`,
              GITHUB_API_URL: url,
            }),
      };
    },
    account: { subject: '1', email: 'someone@example.com', emailVerified: true, name: 'Someone' },
    denyNext: false,
    failTokenNext: false,
    tokenRequests: [],
    close: () => server.stop(),
  };

  const service = server.service;

  service.on('beforeAuthorizeRedirect', (redirect: MutableRedirectUri, req: IncomingMessage) => {
    const query = new URL(req.url ?? '/', url).searchParams;
    const redirectUri = query.get('redirect_uri') ?? '';
    // An unknown client or an unregistered redirect URI must never be redirected to (RFC 6749
    // §4.1.2.1): the person stays on the provider's error page.
    if (query.get('client_id') !== clientId || !registeredRedirectUris.has(redirectUri)) {
      redirect.url = new URL(`${url}/error?error=invalid_request`);
      return;
    }
    const code = redirect.url.searchParams.get('code');
    redirect.url.searchParams.delete('code');
    const fail = (error: string) => redirect.url.searchParams.set('error', error);
    if (query.get('code_challenge_method') !== 'S256' || !query.get('code_challenge')) {
      return fail('invalid_request');
    }
    if (provider.denyNext) {
      provider.denyNext = false;
      return fail('access_denied');
    }
    if (!code) return fail('server_error');
    grants.set(code, { account: { ...provider.account }, redirectUri, used: false });
    redirect.url.searchParams.set('code', code);
  });

  // Runs after the library has checked code_verifier against the challenge (when one is sent).
  service.on('beforeResponse', (response: MutableResponse, req: IncomingMessage & { body?: unknown }) => {
    const body = (req.body ?? {}) as Record<string, string>;
    provider.tokenRequests.push({ ...body });
    const refuse = (status: number, error: string) => {
      // GitHub answers token errors with a 200 and an `error` field.
      response.statusCode = flavour === 'github' ? 200 : status;
      response.body = { error, error_description: `test provider: ${error}` };
    };
    if (provider.failTokenNext) {
      provider.failTokenNext = false;
      response.statusCode = 503;
      response.body = { error: 'temporarily_unavailable' };
      return;
    }
    if (body.client_id !== clientId || body.client_secret !== clientSecret)
      return refuse(401, 'invalid_client');
    const grant = body.code ? grants.get(body.code) : undefined;
    if (!grant || grant.used) return refuse(400, 'invalid_grant');
    grant.used = true;
    if (body.redirect_uri !== grant.redirectUri) return refuse(400, 'invalid_grant');
    // The library only checks a verifier that is sent; these providers require one.
    if (!body.code_verifier) return refuse(400, 'invalid_grant');
    const accessToken =
      flavour === 'github'
        ? `gho_${opaque()}`
        : String((response.body as Record<string, unknown>).access_token);
    accessTokens.set(accessToken, grant.account);
    if (flavour === 'github') {
      response.body = { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' };
    }
  });

  const bearer = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? accessTokens.get(header.slice(7)) : undefined;
  };

  if (flavour === 'google') {
    service.on('beforeUserinfo', (response: MutableResponse, req: IncomingMessage) => {
      const account = bearer(req);
      if (!account) {
        response.statusCode = 401;
        response.body = { error: 'invalid_token' };
        return;
      }
      response.body = {
        sub: account.subject,
        ...(account.email ? { email: account.email, email_verified: account.emailVerified } : {}),
        ...(account.name ? { name: account.name } : {}),
      };
    });
  } else {
    const send = (res: ServerResponse, status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const api =
      (answer: (account: ProviderAccount) => unknown) => (req: IncomingMessage, res: ServerResponse) => {
        const account = bearer(req);
        if (!account) return send(res, 401, { message: 'Bad credentials' });
        // GitHub refuses requests without a User-Agent.
        if (!req.headers['user-agent']) return send(res, 403, { message: 'User-Agent required' });
        return send(res, 200, answer(account));
      };
    service.addRoute(
      'GET',
      '/user',
      api((a) => ({
        id: Number(a.subject),
        login: a.login ?? `user${a.subject}`,
        name: a.name,
        email: null,
      })),
    );
    service.addRoute(
      'GET',
      '/user/emails',
      api((a) => [
        {
          email: `${a.subject}+noreply@users.noreply.github.com`,
          primary: false,
          verified: true,
          visibility: null,
        },
        ...(a.email
          ? [{ email: a.email, primary: true, verified: a.emailVerified, visibility: 'private' }]
          : []),
      ]),
    );
  }

  return provider;
}
