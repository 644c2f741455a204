import { create } from 'zustand';
import type { AuthSession, RegisterBody, User } from '@alma/protocol';
import { i18n } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';
import { readString, StorageKey, writeString } from '../../lib/storage.ts';
import { authClient, failureText } from './server.ts';

/** The sign-in and sign-up flows; the resulting session goes to lib/session.ts. */
interface AuthFlowState {
  submitting: boolean;
  error: string | null;
  login: (input: { email: string; password: string; remember: boolean }) => Promise<boolean>;
  register: (body: RegisterBody) => Promise<User | null>;
  clearError: () => void;
}

export function rememberedEmail(): string {
  return readString(StorageKey.rememberMe) === 'true' ? (readString(StorageKey.rememberedEmail) ?? '') : '';
}

/**
 * Keeps a session the server just issued, then loads the account's preferences into local
 * storage (spec §2 Login). `withTheme`: the account's theme replaces this device's — not for a
 * brand-new account, whose server theme is only the default.
 */
export async function startSession(session: Omit<AuthSession, 'success'>, withTheme: boolean): Promise<void> {
  useSession.getState().setSession(session);
  const { fetchPreferences } = await authClient.get();
  await fetchPreferences(session.user.id, { withTheme });
}

export const useAuthFlow = create<AuthFlowState>()((set) => ({
  submitting: false,
  error: null,

  login: async ({ email, password, remember }) => {
    set({ submitting: true, error: null });
    try {
      const { call, routes } = await authClient.get();
      const session = await call(routes.auth.login, { body: { email, password } });
      // Remember-me keeps only the email on this device (spec §2).
      writeString(StorageKey.rememberMe, remember ? 'true' : null);
      writeString(StorageKey.rememberedEmail, remember ? email.trim() : null);
      await startSession(session, true);
      set({ submitting: false });
      return true;
    } catch (error) {
      set({ submitting: false, error: await failureText(error, i18n.t('errors.login')) });
      return false;
    }
  },

  register: async (body) => {
    set({ submitting: true, error: null });
    try {
      const { call, routes } = await authClient.get();
      const session = await call(routes.auth.register, { body });
      await startSession(session, false);
      set({ submitting: false });
      return session.user;
    } catch (error) {
      set({ submitting: false, error: await failureText(error, i18n.t('errors.register')) });
      return null;
    }
  },

  clearError: () => set({ error: null }),
}));
