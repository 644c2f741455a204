import { z } from 'zod';
import { defineRoute } from './define-route.ts';

/**
 * A reply's audio file (SPEC.md S-4…S-6): `<replyId>.<ext>`, served at `GET /audio/<file>` — a
 * public URL by its unguessable name, because `<audio src>` cannot send a bearer token. Names are
 * checked strictly (letters, digits, `_`, `-`, one dot and a short extension), so no path escapes.
 */
export const AUDIO_FILE_PATTERN = /^[A-Za-z0-9_-]{1,100}\.[a-z0-9]{2,5}$/;
export const isAudioFileName = (name: string): boolean => AUDIO_FILE_PATTERN.test(name);
export const AudioFilenameSchema = z.string({ error: 'required' }).regex(AUDIO_FILE_PATTERN, 'invalid');

/** Where audio files are served; a message's `audioUrl` is this prefix plus the file name. */
export const AUDIO_URL_PREFIX = '/audio/';

export const AudioCheckSchema = z.object({ exists: z.boolean() });
export const AudioCleanupResultSchema = z.object({
  success: z.literal(true),
  /** Audio files removed. */
  deletedFiles: z.number().int().nonnegative(),
  /** Messages whose `audioUrl` was cleared. */
  clearedMessages: z.number().int().nonnegative(),
});

export const audioRoutes = {
  /** True only for a file of one of the caller's messages that is still stored (S-5). */
  check: defineRoute({
    method: 'GET',
    path: '/audio/check/:filename',
    auth: true,
    params: z.object({ filename: AudioFilenameSchema }),
    response: AudioCheckSchema,
  }),
  /** Removes the caller's audio files and clears `audioUrl` on their messages (S-6). */
  cleanup: defineRoute({
    method: 'DELETE',
    path: '/audio/cleanup',
    auth: true,
    query: z.object({ type: z.enum(['all'], { error: 'invalid' }) }),
    response: AudioCleanupResultSchema,
  }),
};
