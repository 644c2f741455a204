import { create } from 'zustand';
import { routes, type Voice } from '@alma/protocol';
import { call } from '../../lib/api.ts';
import { subscriptionLimits } from '../../lib/limits.ts';
import { savePreferences, usePreferences } from '../../lib/preferences.ts';
import { readJson, StorageKey, writeJson, writeString } from '../../lib/storage.ts';
import { parseIdList, PREVIEW_LOAD_TIMEOUT_MS, pushRecent, toggleFavorite, VOLUME } from './logic.ts';

/**
 * Voices (spec §4 Voice selection, §5 Voice list): the user's catalogue (system and custom voices,
 * GET /api/voices), the ones recommended for an avatar, the favourites and recents kept in local
 * storage (spec §3), the choice saved to the account, and the one preview playing. The chat's
 * picker and the onboarding's step both read it.
 */
export type Catalog =
  | { status: 'idle' | 'loading' | 'error'; voices: Voice[]; userId: string | null }
  | { status: 'ready'; voices: Voice[]; userId: string | null };

export interface VoicesState {
  catalog: Catalog;
  /** Ids recommended for an avatar (GET /api/voices/recommended/:avatarId); null: not known. */
  recommended: { avatarId: string; ids: string[] } | null;
  favorites: string[];
  /** Most recent first, at most ten. */
  recents: string[];
  /** The voice whose preview is playing, if any. */
  previewing: string | null;
  volume: number;

  /** Fetches the user's catalogue; what was loaded for this user stays on screen meanwhile. */
  load: (userId: string | null) => Promise<void>;
  loadRecommended: (avatarId: string | null) => Promise<void>;
  toggleFavorite: (id: string) => void;
  /** A voice the user just uploaded joins the catalogue (SPEC.md VU-8). */
  add: (voice: Voice) => void;
  /** Deletes a custom voice (DELETE /api/upload/voice/:id); throws ApiError. */
  remove: (voice: Voice) => Promise<void>;
  /**
   * The chat's confirmation: POST /api/voices/select (for the open session), saved to the account
   * as the default voice, remembered as the selected voice and the newest recent. False when the
   * account could not be updated (the choice is kept on this device).
   */
  choose: (voiceId: string, options: { userId: string | null; sessionId: string | null }) => Promise<boolean>;
  /** Play / stop toggle; one preview at a time (spec §4). */
  togglePreview: (voice: Voice) => void;
  stopPreview: () => void;
  setVolume: (volume: number) => void;
  /** The element previews play in (rendered by the picker: `PreviewAudio`). */
  attachPreview: (element: HTMLAudioElement | null) => void;
}

let player: HTMLAudioElement | null = null;
let loadTimer: ReturnType<typeof setTimeout> | undefined;

export const useVoices = create<VoicesState>()((set, get) => ({
  catalog: { status: 'idle', voices: [], userId: null },
  recommended: null,
  favorites: parseIdList(readJson(StorageKey.favoriteVoices)),
  recents: parseIdList(readJson(StorageKey.recentVoices)),
  previewing: null,
  volume: VOLUME.initial,

  load: async (userId) => {
    const known = get().catalog;
    const mine = known.userId === userId && known.status === 'ready';
    if (!mine) set({ catalog: { status: 'loading', voices: [], userId } });
    try {
      const { voices } = await call(routes.voices.list, {});
      set({ catalog: { status: 'ready', voices, userId } });
    } catch {
      if (!mine) set({ catalog: { status: 'error', voices: [], userId } });
    }
  },

  loadRecommended: async (avatarId) => {
    if (!avatarId) return set({ recommended: null });
    if (get().recommended?.avatarId === avatarId) return;
    try {
      const { voices } = await call(routes.voices.recommended, { params: { avatarId } });
      set({ recommended: { avatarId, ids: voices.map((v) => v.id) } });
    } catch {
      // Without them, the voices' own `recommended` flag counts.
      set({ recommended: null });
    }
  },

  toggleFavorite: (id) => {
    const favorites = toggleFavorite(get().favorites, id);
    writeJson(StorageKey.favoriteVoices, favorites);
    set({ favorites });
  },

  add: (voice) => {
    subscriptionLimits.invalidate();
    set(({ catalog }) => ({
      catalog: { ...catalog, voices: [...catalog.voices.filter((v) => v.id !== voice.id), voice] },
    }));
  },

  remove: async (voice) => {
    await call(routes.voiceUploads.remove, { params: { id: voice.id } });
    subscriptionLimits.invalidate();
    if (get().previewing === voice.id) get().stopPreview();
    set(({ catalog }) => ({
      catalog: { ...catalog, voices: catalog.voices.filter((v) => v.id !== voice.id) },
    }));
  },

  choose: async (voiceId, { userId, sessionId }) => {
    get().stopPreview();
    let saved = true;
    try {
      await call(routes.voices.select, { body: { voiceId, sessionId } });
      if (userId) await savePreferences(userId, { voice: voiceId, defaultVoiceId: voiceId });
    } catch {
      // Kept on this device; the account keeps the previous choice until the next save.
      if (userId) usePreferences.getState().save(userId, { voice: voiceId });
      saved = false;
    }
    writeString(StorageKey.selectedVoice, voiceId);
    const recents = pushRecent(get().recents, voiceId);
    writeJson(StorageKey.recentVoices, recents);
    set({ recents });
    return saved;
  },

  togglePreview: (voice) => {
    const { previewing, stopPreview, volume } = get();
    if (previewing === voice.id) return stopPreview();
    stopPreview();
    const el = player;
    if (!el) return;
    el.src = voice.previewUrl;
    el.volume = volume;
    set({ previewing: voice.id });
    // Spec §4: 10 s to load, then the preview stops silently.
    loadTimer = setTimeout(() => get().stopPreview(), PREVIEW_LOAD_TIMEOUT_MS);
    el.play().catch(() => {
      // Autoplay refusal or an unplayable file: stop silently (spec §4), unless already replaced.
      if (el.getAttribute('src') === voice.previewUrl) get().stopPreview();
    });
  },

  stopPreview: () => {
    clearTimeout(loadTimer);
    if (player?.getAttribute('src')) {
      player.pause();
      player.removeAttribute('src');
      player.load();
    }
    if (get().previewing !== null) set({ previewing: null });
  },

  setVolume: (volume) => {
    if (player) player.volume = volume;
    set({ volume });
  },

  attachPreview: (element) => {
    if (player && player !== element) get().stopPreview();
    player = element;
    if (!element) return;
    element.volume = get().volume;
    // Playing: the file loaded in time. Ended or failed: nothing plays any more.
    element.onplaying = () => clearTimeout(loadTimer);
    element.onended = () => set({ previewing: null });
    element.onerror = () => {
      if (element.getAttribute('src')) get().stopPreview();
    };
  },
}));
