import { VOICE_LANGUAGES, type VOICE_CATEGORIES, type Voice, type VoiceLanguage } from '@alma/protocol';

/**
 * The voice selector's pure logic (spec §2 "Voice selector modal", §4 "Voice selection", §5
 * "Voice list"): filters, case-insensitive search, paging with a window of page buttons, and the
 * favourites and recents lists kept in local storage (spec §3: favoriteVoices, recentVoices).
 */

/** Spec §5: eight voices per page. */
export const VOICE_PAGE_SIZE = 8;
/** Spec §2: at most five page buttons. */
export const MAX_PAGE_BUTTONS = 5;
/** Spec §4: the last ten chosen voices are kept. */
export const MAX_RECENT_VOICES = 10;
/** Spec §4: a preview that has not loaded after 10 s stops silently. */
export const PREVIEW_LOAD_TIMEOUT_MS = 10_000;
/** Spec §2: the volume slider. */
export const VOLUME = { min: 0, max: 1, step: 0.1, initial: 0.5 } as const;

/** The fixed filter categories of spec §2; the data's categories follow them. */
export const FIXED_CATEGORIES = [
  'todos',
  'favoritas',
  'recientes',
  'recomendadas',
  'personalizadas',
] as const;
export type FixedCategory = (typeof FIXED_CATEGORIES)[number];
export type CategoryFilter = FixedCategory | (typeof VOICE_CATEGORIES)[number];
export type LanguageFilter = 'todos' | VoiceLanguage;
export const LANGUAGE_FILTERS: readonly LanguageFilter[] = ['todos', ...VOICE_LANGUAGES];

/** Fixed categories first, then each category found in the data, in the order first seen. */
export function categoryFilters(voices: readonly Voice[]): CategoryFilter[] {
  const fromData: CategoryFilter[] = [];
  for (const v of voices) if (!fromData.includes(v.category)) fromData.push(v.category);
  return [...FIXED_CATEGORIES, ...fromData];
}

export interface VoiceFilter {
  category: CategoryFilter;
  language: LanguageFilter;
  query: string;
  favorites: readonly string[];
  /** Most recent first. */
  recents: readonly string[];
  /** Ids recommended for the current avatar; when null the voices' own `recommended` flag counts. */
  recommendedIds: readonly string[] | null;
}

/** Spec §5: the query matches name, description, category, language or gender, ignoring case. */
export function matchesQuery(voice: Voice, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return true;
  return [voice.name, voice.description, voice.category, voice.language, voice.gender].some((field) =>
    field.toLocaleLowerCase().includes(q),
  );
}

export function filterVoices(voices: readonly Voice[], filter: VoiceFilter): Voice[] {
  let list: Voice[];
  switch (filter.category) {
    case 'todos':
      list = [...voices];
      break;
    case 'favoritas':
      list = voices.filter((v) => filter.favorites.includes(v.id));
      break;
    case 'recientes':
      // In the order they were chosen, most recent first.
      list = filter.recents.flatMap((id) => voices.filter((v) => v.id === id));
      break;
    case 'recomendadas':
      list = voices.filter((v) =>
        filter.recommendedIds ? filter.recommendedIds.includes(v.id) : v.recommended,
      );
      break;
    case 'personalizadas':
      list = voices.filter((v) => v.isCustom);
      break;
    default:
      list = voices.filter((v) => v.category === filter.category);
  }
  if (filter.language !== 'todos') list = list.filter((v) => v.language === filter.language);
  return list.filter((v) => matchesQuery(v, filter.query));
}

export function pageCount(total: number, size = VOICE_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

/** Clamps a 1-based page into range. */
export function clampPage(page: number, total: number, size = VOICE_PAGE_SIZE): number {
  return Math.min(Math.max(1, Math.floor(page)), pageCount(total, size));
}

export function pageOf<T>(items: readonly T[], page: number, size = VOICE_PAGE_SIZE): T[] {
  const p = clampPage(page, items.length, size);
  return items.slice((p - 1) * size, p * size);
}

/** At most `max` page numbers, a window centred on the current page where it fits. */
export function pageButtons(current: number, pages: number, max = MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(max, Math.max(1, pages));
  const page = Math.min(Math.max(1, current), Math.max(1, pages));
  let start = page - Math.floor(count / 2);
  start = Math.max(1, Math.min(start, Math.max(1, pages) - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

/** The chosen voice goes first; duplicates removed; the last ten kept (spec §4). */
export function pushRecent(recents: readonly string[], id: string, max = MAX_RECENT_VOICES): string[] {
  return [id, ...recents.filter((r) => r !== id)].slice(0, max);
}

export function toggleFavorite(favorites: readonly string[], id: string): string[] {
  return favorites.includes(id) ? favorites.filter((f) => f !== id) : [...favorites, id];
}

/** Reads a stored id list; anything else (missing, corrupt, wrong shape) is an empty list. */
export function parseIdList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
