import { create } from 'zustand';
import type { User } from '@alma/protocol';
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

/**
 * The stored user, when it looks like one. A shape check rather than `UserSchema`: this module is
 * in the first screen's bundle, which must not carry zod (README "A lean first screen"). The
 * stored copy is only a cache: with a token, the start-up fetch of `/auth/me` (app/bootstrap.ts)
 * replaces it with a user the schema has validated, and an unreadable one is dropped.
 */
function loadUser(): User | null {
  const value = readJson(StorageKey.user);
  if (typeof value !== 'object' || value === null) return null;
  const { id, email, name, role } = value as Record<string, unknown>;
  const ok = [id, email, name, role].every((field) => typeof field === 'string');
  return ok ? (value as User) : null;
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
