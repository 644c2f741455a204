import { create } from 'zustand';
import type { SessionEndCode, User } from '@alma/protocol';
import { readJson, readString, removeKeys, StorageKey, writeJson, writeString } from './storage.ts';

/**
 * The signed-in session (spec §3 "Auth session": token, refreshToken, user), mirrored to local
 * storage. It lives in lib/ because every feature needs it (the api client refreshes it, the
 * router guards read it, chat logs out); the auth feature owns the sign-in flows that fill it.
 *
 * Every tab of the origin shares it: a tab that signs in, refreshes or signs out writes local
 * storage, and the others adopt the change from their `storage` event (SPEC.md A-3).
 */
export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  /** Why the server ended the last session (SPEC.md A-12); shown on the sign-in page. */
  ended: SessionEndCode | null;
  /**
   * The user logged out here and the app is on its way to the landing page (spec §2: "logout
   * (returns to /)"): guarded screens still on show wait for it instead of sending to /login.
   */
  leaving: boolean;
  setLeaving: (leaving: boolean) => void;
  setSession: (session: { token: string; refreshToken?: string | null; user?: User | null }) => void;
  setTokens: (token: string, refreshToken: string) => void;
  setUser: (user: User) => void;
  /** Logs out locally: drops tokens, user and the local chat history (spec §4). */
  clear: (ended?: SessionEndCode) => void;
  /** Adopts what local storage holds now (another tab's sign-in, rotation or sign-out). */
  reload: () => void;
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
  ended: null,
  leaving: false,
  setLeaving: (leaving) => set({ leaving }),
  setSession: ({ token, refreshToken, user }) => {
    writeString(StorageKey.token, token);
    if (refreshToken !== undefined) writeString(StorageKey.refreshToken, refreshToken);
    if (user !== undefined) persistUser(user);
    set({
      token,
      refreshToken: refreshToken === undefined ? get().refreshToken : refreshToken,
      user: user === undefined ? get().user : user,
      ended: null,
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
  clear: (ended) => {
    removeKeys(
      StorageKey.token,
      StorageKey.refreshToken,
      StorageKey.user,
      StorageKey.userId,
      StorageKey.chatHistory,
      StorageKey.sessions,
    );
    set({ token: null, refreshToken: null, user: null, ended: ended ?? null });
  },
  reload: () => {
    const now = get();
    const userChanged = readString(StorageKey.user) !== (now.user ? JSON.stringify(now.user) : null);
    const tokens = { token: readString(StorageKey.token), refreshToken: readString(StorageKey.refreshToken) };
    if (userChanged) set({ ...tokens, user: loadUser() });
    else if (tokens.token !== now.token || tokens.refreshToken !== now.refreshToken) set(tokens);
  },
}));

const SHARED_KEYS: ReadonlySet<string | null> = new Set([
  StorageKey.token,
  StorageKey.refreshToken,
  StorageKey.user,
  null, // localStorage.clear() in another tab
]);

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (SHARED_KEYS.has(event.key)) useSession.getState().reload();
  });
}

export const selectIsSignedIn = (s: SessionState): boolean => s.token !== null && s.user !== null;
