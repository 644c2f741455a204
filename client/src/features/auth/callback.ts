import { ErrorCode, OAuthProviderSchema, type OAuthProvider, type User } from '@alma/protocol';
import { ApiError } from '../../lib/api.ts';

/**
 * The logic of /auth/callback (spec §2), apart from React so each branch is tested on its own:
 * read the query, then store the tokens, fetch the user and decide where to go.
 */
export interface CallbackParams {
  token: string | null;
  refreshToken: string | null;
  provider: OAuthProvider | null;
  isNewUser: boolean;
  error: string | null;
  errorDescription: string | null;
}

export function readCallbackParams(search: URLSearchParams): CallbackParams {
  const value = (name: string) => {
    const v = search.get(name);
    return v && v.trim() ? v : null;
  };
  const provider = OAuthProviderSchema.safeParse(search.get('provider'));
  return {
    token: value('token'),
    refreshToken: value('refreshToken'),
    provider: provider.success ? provider.data : null,
    isNewUser: search.get('isNewUser') === 'true',
    error: value('error'),
    errorDescription: value('error_description'),
  };
}

type Text = (key: string, options?: Record<string, string>) => string;

/** On error or missing token: the text to show (no exchange happens); else null. */
export function paramError(params: CallbackParams, t: Text): string | null {
  if (params.error) {
    const detail =
      params.errorDescription ??
      (Object.hasOwn(ErrorCode, params.error) ? t(`errors.${params.error}`) : params.error);
    return t('errors.oauthFailed', { detail });
  }
  if (!params.token) return t('errors.oauthNoToken');
  return null;
}

export type CallbackOutcome =
  | { kind: 'navigate'; to: '/onboarding'; state: { userId: string; fromOAuth: true }; delay: true }
  | { kind: 'navigate'; to: '/chat'; delay: boolean }
  | { kind: 'error'; message: string };

export interface CallbackDeps {
  storeTokens: (token: string, refreshToken: string | null) => void;
  fetchUser: () => Promise<User>;
  /** Runs once the user is known: keep it, load the preferences. */
  onUser: (user: User, isNewUser: boolean) => Promise<void>;
  text: Text;
}

/** With a token: store it, fetch the user; a new user goes to /onboarding, others to /chat. */
export async function completeCallback(
  params: CallbackParams & { token: string },
  deps: CallbackDeps,
): Promise<CallbackOutcome> {
  deps.storeTokens(params.token, params.refreshToken);
  let user: User;
  try {
    user = await deps.fetchUser();
  } catch (error) {
    // An answer that says no: show it. A throw without an answer: go on to /chat (spec §2).
    if (error instanceof ApiError && !error.isNetworkError) {
      return { kind: 'error', message: error.displayMessage || deps.text('errors.oauthUserFailed') };
    }
    return { kind: 'navigate', to: '/chat', delay: false };
  }
  await deps.onUser(user, params.isNewUser);
  if (params.isNewUser) {
    return {
      kind: 'navigate',
      to: '/onboarding',
      state: { userId: user.id, fromOAuth: true },
      delay: true,
    };
  }
  return { kind: 'navigate', to: '/chat', delay: true };
}
