/**
 * The system catalogues the client offers before their APIs exist: the eight system avatars of
 * spec §3 and a short list of system voices. Display names and descriptions are i18n keys
 * (`avatars.<id>.*`, `voices.<id>`), so only ids and facts live here.
 */
export const SYSTEM_AVATARS = [
  { id: 'golem', category: 'fantasy', hue: 28 },
  { id: 'witch', category: 'fantasy', hue: 275 },
  { id: 'elf', category: 'fantasy', hue: 130 },
  { id: 'robot', category: 'sci-fi', hue: 200 },
  { id: 'samuraiF', category: 'fantasy', hue: 350 },
  { id: 'deerWoman', category: 'fantasy', hue: 40 },
  { id: 'vampireF', category: 'fantasy', hue: 320 },
  { id: 'robotina', category: 'sci-fi', hue: 175 },
] as const;
export type SystemAvatar = (typeof SYSTEM_AVATARS)[number];
export type SystemAvatarId = SystemAvatar['id'];

export function findAvatar(id: string | null | undefined): SystemAvatar | undefined {
  return SYSTEM_AVATARS.find((a) => a.id === id);
}

export const SYSTEM_VOICES = [
  { id: 'es-lucia', category: 'femenina', language: 'es' },
  { id: 'es-mateo', category: 'masculina', language: 'es' },
  { id: 'es-alex', category: 'neutral', language: 'es' },
  { id: 'en-emma', category: 'femenina', language: 'en' },
  { id: 'en-oliver', category: 'masculina', language: 'en' },
  { id: 'en-river', category: 'neutral', language: 'en' },
] as const;
export type SystemVoice = (typeof SYSTEM_VOICES)[number];
export type SystemVoiceId = SystemVoice['id'];

export function findVoice(id: string | null | undefined): SystemVoice | undefined {
  return SYSTEM_VOICES.find((v) => v.id === id);
}
