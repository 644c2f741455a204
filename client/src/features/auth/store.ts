import { create } from 'zustand';
import { routes, type RegisterBody, type User } from '@alma/protocol';
import { call, errorText } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';
import { readString, StorageKey, writeString } from '../../lib/storage.ts';

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

export const useAuthFlow = create<AuthFlowState>()((set) => ({
  submitting: false,
  error: null,

  login: async ({ email, password, remember }) => {
    set({ submitting: true, error: null });
    try {
      const session = await call(routes.auth.login, { body: { email, password } });
      useSession.getState().setSession(session);
      // Remember-me keeps only the email on this device (spec §2).
      writeString(StorageKey.rememberMe, remember ? 'true' : null);
      writeString(StorageKey.rememberedEmail, remember ? email.trim() : null);
      set({ submitting: false });
      return true;
    } catch (error) {
      set({ submitting: false, error: errorText(error, i18n.t('errors.login')) });
      return false;
    }
  },

  register: async (body) => {
    set({ submitting: true, error: null });
    try {
      const session = await call(routes.auth.register, { body });
      useSession.getState().setSession(session);
      set({ submitting: false });
      return session.user;
    } catch (error) {
      set({ submitting: false, error: errorText(error, i18n.t('errors.register')) });
      return null;
    }
  },

  clearError: () => set({ error: null }),
}));
