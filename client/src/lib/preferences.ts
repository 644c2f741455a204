import { useMemo } from 'react';
import { z } from 'zod';
import { create } from 'zustand';
import { PERSONALITIES, routes, type Preferences } from '@alma/protocol';
import { call } from './api.ts';
import { preferencesKey, readJson, StorageKey, writeJson, writeString } from './storage.ts';
import { useTheme } from './theme.ts';

/**
 * Per-user preferences (spec §3 "Preferences"). The server is the source (GET/PUT
 * /api/users/preferences); this store is its local cache under `preferences:<userId>`, so the
 * route guard can decide at once on a reload. The spec's `selectedAvatar` / `selectedVoice` /
 * `personality` keys mirror the current choice for the rest of the app.
 */
export const LocalPreferencesSchema = z.object({
  avatar: z.string().nullable().default(null),
  voice: z.string().nullable().default(null),
  onboardingCompleted: z.boolean().default(false),
});
export type LocalPreferences = z.infer<typeof LocalPreferencesSchema>;

const EMPTY: LocalPreferences = { avatar: null, voice: null, onboardingCompleted: false };

/** Where the server's copy stands for a user in this page load. */
export type SyncState = 'pending' | 'done' | 'failed';

export function loadPreferences(userId: string): LocalPreferences {
  const parsed = LocalPreferencesSchema.safeParse(readJson(preferencesKey(userId)));
  return parsed.success ? parsed.data : EMPTY;
}

interface PreferencesState {
  byUser: Record<string, LocalPreferences>;
  sync: Record<string, SyncState>;
  get: (userId: string) => LocalPreferences;
  /** Writes the local cache only. */
  save: (userId: string, patch: Partial<LocalPreferences>) => void;
}

export const usePreferences = create<PreferencesState>()((set, get) => ({
  byUser: {},
  sync: {},
  get: (userId) => get().byUser[userId] ?? loadPreferences(userId),
  save: (userId, patch) => {
    const next = { ...get().get(userId), ...patch };
    writeJson(preferencesKey(userId), next);
    if (patch.avatar !== undefined) writeString(StorageKey.selectedAvatar, patch.avatar);
    if (patch.voice !== undefined) writeString(StorageKey.selectedVoice, patch.voice);
    set((s) => ({ byUser: { ...s.byUser, [userId]: next } }));
  },
}));

function setSync(userId: string, state: SyncState): void {
  usePreferences.setState((s) => ({ sync: { ...s.sync, [userId]: state } }));
}

/**
 * Puts the server's preferences into local storage. `withTheme` also applies the theme and the
 * personality: right after signing in (the account's choice wins), not on a reload (the device's
 * current state is already the latest choice, saved to the server when it was made).
 */
export function applyServerPreferences(userId: string, preferences: Preferences, withTheme: boolean): void {
  usePreferences.getState().save(userId, {
    avatar: preferences.avatar ?? preferences.selectedAvatarId,
    voice: preferences.voice ?? preferences.defaultVoiceId,
    onboardingCompleted: preferences.onboardingCompleted,
  });
  if (withTheme) {
    useTheme.getState().setTheme(preferences.theme);
    if ((PERSONALITIES as readonly string[]).includes(preferences.personality)) {
      writeString(StorageKey.personality, preferences.personality);
    }
  }
}

const inFlight = new Map<string, Promise<boolean>>();

/**
 * GET /api/users/preferences into the local cache (spec §2 Login: "Preferences are then loaded
 * into local storage"). Resolves true when the server answered; never throws.
 */
export function fetchPreferences(userId: string, options: { withTheme?: boolean } = {}): Promise<boolean> {
  const running = inFlight.get(userId);
  if (running) return running;
  setSync(userId, 'pending');
  const promise = call(routes.account.getPreferences, {})
    .then(({ preferences }) => {
      applyServerPreferences(userId, preferences, options.withTheme ?? false);
      setSync(userId, 'done');
      return true;
    })
    .catch(() => {
      setSync(userId, 'failed');
      return false;
    })
    .finally(() => inFlight.delete(userId));
  inFlight.set(userId, promise);
  return promise;
}

/** PUT /api/users/preferences; the answer becomes the local cache. Throws ApiError. */
export async function savePreferences(userId: string, patch: Partial<Preferences>): Promise<Preferences> {
  const { preferences } = await call(routes.account.updatePreferences, { body: patch });
  applyServerPreferences(userId, preferences, false);
  setSync(userId, 'done');
  return preferences;
}

/** Selector: the preferences of one user (reads storage the first time). */
export function usePreferencesOf(userId: string | null | undefined): LocalPreferences {
  const cached = usePreferences((s) => (userId ? s.byUser[userId] : undefined));
  return useMemo(() => cached ?? (userId ? loadPreferences(userId) : EMPTY), [cached, userId]);
}
