/**
 * Every local storage key of spec §3, in one place. Values are plain strings except the ones
 * marked JSON. Access goes through these helpers so a blocked or full storage (private mode,
 * quota) never throws into the UI.
 */
export const StorageKey = {
  token: 'token',
  refreshToken: 'refreshToken',
  /** JSON: the signed-in User. */
  user: 'user',
  userId: 'userId',
  /** JSON: cached messages; cleared when the user is logged out (spec §4 "Auth on load"). */
  chatHistory: 'chatHistory',
  /** The active chat session id. */
  sessions: 'sessions',
  selectedAvatar: 'selectedAvatar',
  selectedVoice: 'selectedVoice',
  favoriteVoices: 'favoriteVoices',
  recentVoices: 'recentVoices',
  theme: 'theme',
  personality: 'personality',
  /** i18next-browser-languagedetector reads and caches the language under this key. */
  preferredLanguage: 'preferredLanguage',
  /**
   * The code picked in the language toggle (es, en, fr, de, it, pt). Only es and en have an
   * interface; the others show English, and this key remembers the pick to say so.
   */
  languageChoice: 'languageChoice',
  rememberedEmail: 'rememberedEmail',
  rememberMe: 'rememberMe',
  /** "1" while spoken replies are muted (spec §2 control bar: sound on or off). */
  soundMuted: 'soundMuted',
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

/**
 * Per-user preferences (avatar, voice, onboardingCompleted) are cached under
 * `preferences:<userId>`; the server (GET /api/users/preferences) is the source.
 */
export function preferencesKey(userId: string): string {
  return `preferences:${userId}`;
}

function store(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readString(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null): void {
  try {
    const s = store();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Storage full or blocked: the app keeps working from memory.
  }
}

export function readJson(key: string): unknown {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, value === null || value === undefined ? null : JSON.stringify(value));
}

export function removeKeys(...keys: string[]): void {
  for (const key of keys) writeString(key, null);
}
