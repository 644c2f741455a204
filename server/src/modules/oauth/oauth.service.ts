import {
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  OAUTH_PROVIDERS,
  type AuthSession,
  type Language,
  type OAuthProvider,
} from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import type { Clock, IdGenerator } from '../../lib/ids.ts';
import {
  DuplicateKeyError,
  type IdentityRepository,
  type UserRecord,
  type UserRepository,
} from '../../storage/types.ts';
import type { AccessRevocation } from '../auth/revocation.ts';
import { OAuthFlowError, type OAuthClient, type ProviderProfile } from './oauth.providers.ts';
import { createFlowStore, type FlowStore } from './oauth.state.ts';

export interface OAuthServiceDeps {
  /** Only the configured providers (SPEC.md O-1). */
  clients: Partial<Record<OAuthProvider, OAuthClient>>;
  users: UserRepository;
  identities: IdentityRepository;
  revocation: Pick<AccessRevocation, 'revokeUser'>;
  /** Issues Alma's tokens for a user proven by the provider (`auth.startSession`). */
  startSession: (user: UserRecord) => Promise<AuthSession>;
  /** Public base URL of the app; the callback registered at each provider hangs from it. */
  appUrl: string;
  /** Lower-cased; accounts created with one of these emails are admins. */
  adminEmails: readonly string[];
  newId: IdGenerator;
  clock: Clock;
  /** Where flows wait for their callback; this process's memory unless given (Redis, M-3). */
  flows?: FlowStore;
}

export interface CallbackParams {
  code?: string;
  state?: string;
  error?: string;
  errorDescription?: string;
}

export interface OAuthSignIn {
  session: AuthSession;
  isNewUser: boolean;
}

/**
 * Sign-in through Google and GitHub: the OAuth 2.0 authorization-code flow with `state` and
 * PKCE S256 (SPEC.md O-1…O-5). Throws `AppError('oauth_not_configured')` for a provider without
 * configuration and `OAuthFlowError` for every failure of the flow itself.
 */
export function createOAuthService(deps: OAuthServiceDeps) {
  const { users, identities, clock } = deps;
  const flows: FlowStore = deps.flows ?? createFlowStore({ clock });

  const clientFor = (provider: OAuthProvider): OAuthClient => {
    const client = deps.clients[provider];
    if (!client) throw new AppError('oauth_not_configured', { detail: provider });
    return client;
  };
  /** Must equal, character for character, the redirect URI registered at the provider. */
  const redirectUri = (provider: OAuthProvider) => `${deps.appUrl}/auth/${provider}/callback`;

  /**
   * Accounts link by verified email (SPEC.md O-4): a known identity signs in to its user; else
   * the provider must vouch for the email, which then picks the existing account or a new one.
   */
  async function resolveUser(
    provider: OAuthProvider,
    profile: ProviderProfile,
    language: Language,
  ): Promise<{ user: UserRecord; isNewUser: boolean }> {
    const known = await identities.find(provider, profile.subject);
    if (known) {
      const user = await users.findById(known.userId);
      if (!user)
        throw new OAuthFlowError('unexpected', `identity ${provider}:${profile.subject} has no user`);
      return { user, isNewUser: false };
    }
    const email = profile.email;
    if (!email) throw new OAuthFlowError('email_missing', `${provider}:${profile.subject} shared no email`);
    // Neither linking nor creating on an address the provider does not vouch for: either would
    // let whoever typed that address at the provider into (or ahead of) its owner's account.
    if (!profile.emailVerified) {
      throw new OAuthFlowError(
        'email_unverified',
        `${provider}:${profile.subject} email ${email} unverified`,
      );
    }

    let user = await users.findByEmail(email);
    let isNewUser = false;
    if (!user) {
      try {
        user = await users.create({
          id: deps.newId(),
          name: displayName(profile.name, email),
          email,
          passwordHash: '',
          emailVerified: true,
          plan: 'free',
          role: deps.adminEmails.includes(email) ? 'admin' : 'user',
          language,
          theme: 'dark',
          createdAt: clock().toISOString(),
        });
        isNewUser = true;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // Registered concurrently (a password sign-up, or this same callback twice): link to it.
        user = await users.findByEmail(email);
        if (!user) throw error;
      }
    }
    if (!isNewUser) user = await claimUnverifiedAccount(user);

    try {
      await identities.link({
        provider,
        subject: profile.subject,
        userId: user.id,
        email,
        createdAt: clock().toISOString(),
      });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // The same identity was linked by a concurrent callback; sign in to whichever user won.
      const winner = await identities.find(provider, profile.subject);
      const winnerUser = winner ? await users.findById(winner.userId) : null;
      if (!winnerUser) throw error;
      return { user: winnerUser, isNewUser: isNewUser && winnerUser.id === user.id };
    }
    return { user, isNewUser };
  }

  /**
   * Linking to an account whose email was never verified (SPEC.md O-4): the provider has just
   * proven who owns the address, while the password on the account was set by someone who never
   * proved it — possibly an attacker who registered the victim's email first. So the account
   * becomes verified, that password stops working (the owner can set one through "forgot
   * password") and its refresh tokens are revoked.
   */
  async function claimUnverifiedAccount(user: UserRecord): Promise<UserRecord> {
    if (user.emailVerified) return user;
    const updated = await users.update(user.id, { emailVerified: true, passwordHash: '' });
    await deps.revocation.revokeUser(user.id, 'signed_out');
    return updated ?? user;
  }

  return {
    /** Which providers are configured, so the client can say so up front (SPEC.md O-1). */
    configured(): Record<OAuthProvider, boolean> {
      return Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p, deps.clients[p] !== undefined])) as Record<
        OAuthProvider,
        boolean
      >;
    },

    /** The provider's authorization URL for a new flow bound to this browser (SPEC.md O-2). */
    async start(provider: OAuthProvider, binding: string): Promise<string> {
      const client = clientFor(provider);
      const { state, codeChallenge } = await flows.begin(provider, binding);
      const url = new URL(client.authorizeUrl);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', redirectUri(provider));
      url.searchParams.set('scope', client.scope);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url.href;
    },

    /** The provider's answer → Alma's tokens for the matching user (SPEC.md O-3, O-4). */
    async finish(
      provider: OAuthProvider,
      params: CallbackParams,
      binding: string | undefined,
      language: Language,
    ): Promise<OAuthSignIn> {
      const client = clientFor(provider);
      // The state is checked (and spent) first, even when the provider reports an error.
      if (!params.state) throw new OAuthFlowError('state', 'callback without state');
      const flow = await flows.take(provider, params.state, binding);
      if (!flow.ok) throw new OAuthFlowError('state', `state refused: ${flow.reason}`);
      if (params.error) {
        throw new OAuthFlowError(
          'denied',
          `provider error ${params.error} ${params.errorDescription ?? ''}`.trim(),
        );
      }
      if (!params.code) throw new OAuthFlowError('denied', 'callback without code');

      const accessToken = await client.exchangeCode({
        code: params.code,
        codeVerifier: flow.codeVerifier,
        redirectUri: redirectUri(provider),
      });
      const profile = await client.fetchProfile(accessToken);
      const { user, isNewUser } = await resolveUser(provider, profile, language);
      return { session: await deps.startSession(user), isNewUser };
    },
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;

/** The provider's name when it fits the spec's name rule (§5), else the email's local part. */
function displayName(name: string | null, email: string): string {
  const candidates = [name?.trim() ?? '', email.split('@')[0] ?? '', 'Alma user'];
  const fit = candidates.find((c) => c.length >= NAME_MIN_LENGTH) ?? 'Alma user';
  return fit.slice(0, NAME_MAX_LENGTH);
}
