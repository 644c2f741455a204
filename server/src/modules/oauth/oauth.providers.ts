import type { OAuthProvider } from '@alma/protocol';
import { z } from 'zod';
import type { Config, OAuthClientConfig } from '../../config.ts';

/** Why a sign-in through a provider failed; each has a text for the person (oauth.messages.ts). */
export const OAuthFailure = {
  /** The person declined at the provider, or the provider answered with an error. */
  denied: 'denied',
  /** Missing, unknown, expired, replayed or another browser's `state`. */
  state: 'state',
  /** The token endpoint refused the code (bad code, PKCE verifier, client or redirect URI). */
  exchange: 'exchange',
  /** The provider's user endpoint failed or answered something unexpected. */
  profile: 'profile',
  email_missing: 'email_missing',
  email_unverified: 'email_unverified',
  unexpected: 'unexpected',
} as const;
export type OAuthFailure = (typeof OAuthFailure)[keyof typeof OAuthFailure];

/** A failed sign-in: `reason` is shown to the person, `detail` only logged. */
export class OAuthFlowError extends Error {
  constructor(
    readonly reason: OAuthFailure,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'OAuthFlowError';
  }
}

/** What Alma needs to know about the person at the provider. */
export interface ProviderProfile {
  /** The provider's stable id for the person. */
  subject: string;
  /** Lower-cased; null when the provider shared none. */
  email: string | null;
  /** Whether the provider vouches that the person controls `email`. */
  emailVerified: boolean;
  name: string | null;
}

export interface OAuthClient {
  readonly provider: OAuthProvider;
  readonly scope: string;
  readonly clientId: string;
  readonly authorizeUrl: string;
  /** Authorization code → the provider's access token (RFC 6749 §4.1.3, RFC 7636 §4.5). */
  exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string }): Promise<string>;
  fetchProfile(accessToken: string): Promise<ProviderProfile>;
}

/** Provider calls are bounded so a hung provider cannot hold the callback open. */
const PROVIDER_TIMEOUT_MS = 10_000;

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
});
const ErrorResponseSchema = z.object({ error: z.string(), error_description: z.string().optional() });

async function readJson(res: Response): Promise<unknown> {
  return res.json().catch(() => null);
}

async function exchangeCode(
  client: OAuthClientConfig,
  input: { code: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  let res: Response;
  try {
    res = await fetch(client.tokenUrl, {
      method: 'POST',
      // GitHub answers form-encoded unless asked for JSON; Google always answers JSON.
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      // client_secret_post: both providers accept the credentials in the body.
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code_verifier: input.codeVerifier,
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OAuthFlowError('exchange', `token endpoint unreachable: ${String(error)}`);
  }
  const body = await readJson(res);
  const token = TokenResponseSchema.safeParse(body);
  // GitHub reports errors with a 200 and an `error` field, so the body decides, not the status.
  if (!res.ok || !token.success) {
    const error = ErrorResponseSchema.safeParse(body);
    const why = error.success
      ? `${error.data.error} ${error.data.error_description ?? ''}`
      : 'no access_token';
    throw new OAuthFlowError('exchange', `token endpoint answered ${res.status}: ${why.trim()}`);
  }
  if (token.data.token_type !== undefined && token.data.token_type.toLowerCase() !== 'bearer') {
    throw new OAuthFlowError('exchange', `unsupported token_type ${token.data.token_type}`);
  }
  return token.data.access_token;
}

async function getJson(
  url: string,
  accessToken: string,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', ...headers, authorization: `Bearer ${accessToken}` },
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OAuthFlowError('profile', `${url} unreachable: ${String(error)}`);
  }
  if (!res.ok) throw new OAuthFlowError('profile', `${url} answered ${res.status}`);
  return readJson(res);
}

function parseProfile<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new OAuthFlowError('profile', `unexpected ${what}: ${parsed.error.message}`);
  return parsed.data;
}

const normalizeEmail = (email: string | null | undefined): string | null => {
  const trimmed = email?.trim().toLowerCase();
  return trimmed ? trimmed : null;
};

/** OpenID Connect UserInfo (Google's `openidconnect.googleapis.com/v1/userinfo`). */
const GoogleUserinfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // OIDC says boolean; some Google endpoints have sent the string "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  name: z.string().optional(),
});

export function googleClient(config: NonNullable<Config['oauth']['google']>): OAuthClient {
  return {
    provider: 'google',
    scope: 'openid email profile',
    clientId: config.clientId,
    authorizeUrl: config.authorizeUrl,
    exchangeCode: (input) => exchangeCode(config, input),
    async fetchProfile(accessToken) {
      const info = parseProfile(
        GoogleUserinfoSchema,
        await getJson(config.userinfoUrl, accessToken),
        'userinfo',
      );
      return {
        subject: info.sub,
        email: normalizeEmail(info.email),
        emailVerified: info.email_verified === true || info.email_verified === 'true',
        name: info.name ?? null,
      };
    },
  };
}

/** GitHub's REST API: `GET /user` and `GET /user/emails` (scope `user:email`). */
const GitHubUserSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  login: z.string().min(1),
  name: z.string().nullish(),
});
const GitHubEmailsSchema = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
);

export function githubClient(config: NonNullable<Config['oauth']['github']>): OAuthClient {
  // GitHub refuses API calls without a User-Agent and recommends pinning the API version.
  const headers = {
    accept: 'application/vnd.github+json',
    'user-agent': 'Alma',
    'x-github-api-version': '2022-11-28',
  };
  return {
    provider: 'github',
    scope: 'read:user user:email',
    clientId: config.clientId,
    authorizeUrl: config.authorizeUrl,
    exchangeCode: (input) => exchangeCode(config, input),
    async fetchProfile(accessToken) {
      const user = parseProfile(
        GitHubUserSchema,
        await getJson(`${config.apiUrl}/user`, accessToken, headers),
        'user',
      );
      const emails = parseProfile(
        GitHubEmailsSchema,
        await getJson(`${config.apiUrl}/user/emails`, accessToken, headers),
        'user emails',
      );
      // The primary address is the account's; its `verified` flag is GitHub's word on it.
      const primary = emails.find((entry) => entry.primary);
      return {
        subject: String(user.id),
        email: normalizeEmail(primary?.email),
        emailVerified: primary?.verified === true,
        name: user.name?.trim() || user.login,
      };
    },
  };
}

/** The configured providers' clients; an unconfigured provider has none (SPEC.md O-1). */
export function createOAuthClients(config: Config['oauth']): Partial<Record<OAuthProvider, OAuthClient>> {
  return {
    ...(config.google ? { google: googleClient(config.google) } : {}),
    ...(config.github ? { github: githubClient(config.github) } : {}),
  };
}
