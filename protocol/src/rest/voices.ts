import { z } from 'zod';
import { defineRoute } from './define-route.ts';

/**
 * The voice catalogue (spec §3 Voice, §7 Voices; SPEC.md V-1…V-6). The server holds the 25
 * system voices (server/src/modules/voices/catalogue.ts); this file is their wire shape and the routes.
 */

/** Spec §3 categories; the English labels (female, male, neutral) are the client's to show. */
export const VOICE_CATEGORIES = ['femenina', 'masculina', 'neutral'] as const;
export type VoiceCategory = (typeof VOICE_CATEGORIES)[number];
/** Spec §3 languages, as the data names them (the selector's filter values). */
export const VOICE_LANGUAGES = ['español', 'inglés'] as const;
export type VoiceLanguage = (typeof VOICE_LANGUAGES)[number];
/** A voice's gender, in English so the selector's free-text search finds "female" too. */
export const VOICE_GENDERS = ['female', 'male', 'neutral'] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];

/** Stable catalogue ids: a language prefix and a name, e.g. `es-lucia`, `en-emma`. */
export const VOICE_ID_PATTERN = /^[a-z]{2}-[a-z0-9-]{1,40}$/;
/** A system preview file: `<voice id>.mp3` (V-5). Checked strictly, so no path escapes. */
export const SYSTEM_VOICE_FILE_PATTERN = /^[a-z]{2}-[a-z0-9-]{1,40}\.mp3$/;
export const isSystemVoiceFile = (name: string): boolean => SYSTEM_VOICE_FILE_PATTERN.test(name);
/** Where system previews are served; a voice's `previewUrl` is this prefix plus its `file`. */
export const SYSTEM_VOICES_URL_PREFIX = '/system-voices/';

export const VoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(VOICE_CATEGORIES),
  language: z.enum(VOICE_LANGUAGES),
  gender: z.enum(VOICE_GENDERS),
  /** The mp3 preview's file name (`<id>.mp3`). */
  file: z.string(),
  /** Where the preview plays from (`/system-voices/<file>`). */
  previewUrl: z.string(),
  recommended: z.boolean(),
  /** Favourites and recents live in the client's local storage (spec §3): always false here. */
  favorite: z.boolean(),
  recent: z.boolean(),
  isCustom: z.boolean(),
});
export type Voice = z.infer<typeof VoiceSchema>;

const VoiceIdSchema = z.string({ error: 'required' }).min(1, 'required').max(64, 'invalid');

export const voicesRoutes = {
  /** The whole catalogue (V-2). */
  list: defineRoute({
    method: 'GET',
    path: '/api/voices',
    auth: true,
    response: z.object({ success: z.literal(true), voices: z.array(VoiceSchema), message: z.string() }),
  }),
  /** Voices suited to an avatar; an unknown avatar gets the general recommended set (V-3). */
  recommended: defineRoute({
    method: 'GET',
    path: '/api/voices/recommended/:avatarId',
    auth: true,
    params: z.object({ avatarId: z.string().min(1, 'required').max(64, 'invalid') }),
    response: z.object({ success: z.literal(true), voices: z.array(VoiceSchema) }),
  }),
  /** One voice; an unknown id is `not_found` (V-2). */
  get: defineRoute({
    method: 'GET',
    path: '/api/voices/:id',
    auth: true,
    params: z.object({ id: VoiceIdSchema }),
    response: z.object({ success: z.literal(true), voice: VoiceSchema }),
  }),
  /** Stores the voice as the user's `defaultVoiceId`; an unknown id is a field error (V-4). */
  select: defineRoute({
    method: 'POST',
    path: '/api/voices/select',
    auth: true,
    body: z.object({ voiceId: VoiceIdSchema, sessionId: z.string().max(64, 'invalid').nullish() }),
    response: z.object({ success: z.literal(true), voice: VoiceSchema }),
  }),
};
