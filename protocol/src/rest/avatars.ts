import { z } from 'zod';
import { defineRoute } from './define-route.ts';

/**
 * The system avatar catalogue (spec §3 System avatar, §7; SPEC.md AV-1…). The server builds the
 * eight characters and the default model with its own forge (server/src/avatars/forge) and serves
 * them; this file is their wire shape and the route.
 */

export const SYSTEM_AVATAR_IDS = [
  'golem',
  'witch',
  'elf',
  'robot',
  'samuraiF',
  'deerWoman',
  'vampireF',
  'robotina',
] as const;
export type SystemAvatarId = (typeof SYSTEM_AVATAR_IDS)[number];
export const isSystemAvatarId = (id: unknown): id is SystemAvatarId =>
  typeof id === 'string' && (SYSTEM_AVATAR_IDS as readonly string[]).includes(id);

/** Spec §3: fantasy or sci-fi; the chat side reads a missing category as general. */
export const AVATAR_CATEGORIES = ['fantasy', 'sci-fi', 'general', 'custom'] as const;
export type AvatarCategory = (typeof AVATAR_CATEGORIES)[number];

/** The default model (spec §9) and where system models are served (`/models/<id>.glb`). */
export const DEFAULT_AVATAR_MODEL_URL = '/model.glb';
export const SYSTEM_MODELS_URL_PREFIX = '/models/';
export const systemModelUrl = (id: SystemAvatarId): string => `${SYSTEM_MODELS_URL_PREFIX}${id}.glb`;
/**
 * Where the characters' portraits are served (SPEC.md AV-7): `/portraits/<id>.webp?v=<version>`,
 * `default` for the default model; the version in the URL lets them be cached for good.
 */
export const SYSTEM_PORTRAITS_URL_PREFIX = '/portraits/';
export const DEFAULT_AVATAR_PORTRAIT_ID = 'default';
export const systemPortraitUrl = (id: SystemAvatarId | typeof DEFAULT_AVATAR_PORTRAIT_ID, version: string) =>
  `${SYSTEM_PORTRAITS_URL_PREFIX}${id}.webp?v=${version}`;

export const SystemAvatarSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(AVATAR_CATEGORIES),
  /** Path of the .glb (`/models/<id>.glb`). */
  model: z.string(),
  /** The character's portrait for the picker (`systemPortraitUrl`, AV-7). */
  portrait: z.string(),
});
export type SystemAvatar = z.infer<typeof SystemAvatarSchema>;

export const avatarRoutes = {
  /** The eight system avatars (AV-1). */
  list: defineRoute({
    method: 'GET',
    path: '/api/avatars',
    auth: false,
    response: z.object({
      success: z.literal(true),
      avatars: z.array(SystemAvatarSchema),
      /** The default avatar (no choice made): its model and portrait, choosable like the others. */
      defaultAvatar: z.object({ model: z.string(), portrait: z.string() }),
    }),
  }),
};
