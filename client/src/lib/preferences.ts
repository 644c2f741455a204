import { useMemo } from 'react';
import { z } from 'zod';
import { create } from 'zustand';
import { preferencesKey, readJson, StorageKey, writeJson, writeString } from './storage.ts';

/**
 * Per-user preferences (spec §3 "Preferences": avatar, voice, onboardingCompleted). Kept locally
 * per user id until the preferences API lands; the spec's `selectedAvatar` / `selectedVoice` keys
 * mirror the current choice for the rest of the app.
 */
export const LocalPreferencesSchema = z.object({
  avatar: z.string().nullable().default(null),
  voice: z.string().nullable().default(null),
  onboardingCompleted: z.boolean().default(false),
});
export type LocalPreferences = z.infer<typeof LocalPreferencesSchema>;

const EMPTY: LocalPreferences = { avatar: null, voice: null, onboardingCompleted: false };

export function loadPreferences(userId: string): LocalPreferences {
  const parsed = LocalPreferencesSchema.safeParse(readJson(preferencesKey(userId)));
  return parsed.success ? parsed.data : EMPTY;
}

interface PreferencesState {
  byUser: Record<string, LocalPreferences>;
  get: (userId: string) => LocalPreferences;
  save: (userId: string, patch: Partial<LocalPreferences>) => void;
}

export const usePreferences = create<PreferencesState>()((set, get) => ({
  byUser: {},
  get: (userId) => get().byUser[userId] ?? loadPreferences(userId),
  save: (userId, patch) => {
    const next = { ...get().get(userId), ...patch };
    writeJson(preferencesKey(userId), next);
    if (patch.avatar !== undefined) writeString(StorageKey.selectedAvatar, patch.avatar);
    if (patch.voice !== undefined) writeString(StorageKey.selectedVoice, patch.voice);
    set((s) => ({ byUser: { ...s.byUser, [userId]: next } }));
  },
}));

/** Selector: the preferences of one user (reads storage the first time). */
export function usePreferencesOf(userId: string | null | undefined): LocalPreferences {
  const cached = usePreferences((s) => (userId ? s.byUser[userId] : undefined));
  return useMemo(() => cached ?? (userId ? loadPreferences(userId) : EMPTY), [cached, userId]);
}
