import { create } from 'zustand';
import { UserSchema, type User } from '@alma/protocol';
import { readJson, readString, removeKeys, StorageKey, writeJson, writeString } from './storage.ts';

/**
 * The signed-in session (spec §3 "Auth session": token, refreshToken, user), mirrored to local
 * storage. It lives in lib/ because every feature needs it (the api client refreshes it, the
 * router guards read it, chat logs out); the auth feature owns the sign-in flows that fill it.
 */
export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  setSession: (session: { token: string; refreshToken?: string | null; user?: User | null }) => void;
  setTokens: (token: string, refreshToken: string) => void;
  setUser: (user: User) => void;
  /** Logs out locally: drops tokens, user and the local chat history (spec §4). */
  clear: () => void;
}

function loadUser(): User | null {
  const parsed = UserSchema.safeParse(readJson(StorageKey.user));
  return parsed.success ? parsed.data : null;
}

function persistUser(user: User | null): void {
  writeJson(StorageKey.user, user);
  writeString(StorageKey.userId, user?.id ?? null);
}

export const useSession = create<SessionState>()((set, get) => ({
  token: readString(StorageKey.token),
  refreshToken: readString(StorageKey.refreshToken),
  user: loadUser(),
  setSession: ({ token, refreshToken, user }) => {
    writeString(StorageKey.token, token);
    if (refreshToken !== undefined) writeString(StorageKey.refreshToken, refreshToken);
    if (user !== undefined) persistUser(user);
    set({
      token,
      refreshToken: refreshToken === undefined ? get().refreshToken : refreshToken,
      user: user === undefined ? get().user : user,
    });
  },
  setTokens: (token, refreshToken) => {
    writeString(StorageKey.token, token);
    writeString(StorageKey.refreshToken, refreshToken);
    set({ token, refreshToken });
  },
  setUser: (user) => {
    persistUser(user);
    set({ user });
  },
  clear: () => {
    removeKeys(
      StorageKey.token,
      StorageKey.refreshToken,
      StorageKey.user,
      StorageKey.userId,
      StorageKey.chatHistory,
      StorageKey.sessions,
    );
    set({ token: null, refreshToken: null, user: null });
  },
}));

export const selectIsSignedIn = (s: SessionState): boolean => s.token !== null && s.user !== null;
