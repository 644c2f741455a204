import { describe, expect, it } from 'vitest';
import type { Voice } from '@alma/protocol';
import {
  categoryFilters,
  clampPage,
  filterVoices,
  MAX_RECENT_VOICES,
  matchesQuery,
  pageButtons,
  pageCount,
  pageOf,
  parseIdList,
  pushRecent,
  toggleFavorite,
  type VoiceFilter,
} from './logic.ts';

function voice(id: string, patch: Partial<Voice> = {}): Voice {
  return {
    id,
    name: id,
    description: '',
    category: 'femenina',
    language: 'español',
    gender: 'female',
    file: `${id}.mp3`,
    previewUrl: `/system-voices/${id}.mp3`,
    recommended: false,
    favorite: false,
    recent: false,
    isCustom: false,
    ...patch,
  };
}

const VOICES: Voice[] = [
  voice('es-lucia', { name: 'Lucía', description: 'Cálida y cercana', recommended: true }),
  voice('es-mateo', { name: 'Mateo', category: 'masculina', gender: 'male', description: 'Serena' }),
  voice('en-river', { name: 'River', category: 'neutral', gender: 'neutral', language: 'inglés' }),
  voice('en-emma', { name: 'Emma', language: 'inglés', description: 'Natural, American', recommended: true }),
];

const ALL: VoiceFilter = {
  category: 'todos',
  language: 'todos',
  query: '',
  favorites: [],
  recents: [],
  recommendedIds: null,
};
const ids = (list: Voice[]) => list.map((v) => v.id);

describe('search (spec §5)', () => {
  it('matches name, description, category, language and gender, ignoring case', () => {
    const v = VOICES[3]!;
    expect(matchesQuery(v, 'EMMA')).toBe(true);
    expect(matchesQuery(v, 'american')).toBe(true);
    expect(matchesQuery(v, 'Femenina')).toBe(true);
    expect(matchesQuery(v, 'INGLÉS')).toBe(true);
    expect(matchesQuery(v, 'female')).toBe(true);
    expect(matchesQuery(v, '  ')).toBe(true);
    expect(matchesQuery(v, 'masculina')).toBe(false);
  });

  it('"male" also finds "female" (a substring), "masculina" only the men', () => {
    expect(ids(filterVoices(VOICES, { ...ALL, query: 'masculina' }))).toEqual(['es-mateo']);
  });
});

describe('filters (spec §2)', () => {
  it('lists the fixed categories, then the data categories', () => {
    expect(categoryFilters(VOICES)).toEqual([
      'todos',
      'favoritas',
      'recientes',
      'recomendadas',
      'personalizadas',
      'femenina',
      'masculina',
      'neutral',
    ]);
  });

  it('filters by category and language together', () => {
    expect(ids(filterVoices(VOICES, { ...ALL, category: 'femenina' }))).toEqual(['es-lucia', 'en-emma']);
    expect(ids(filterVoices(VOICES, { ...ALL, category: 'femenina', language: 'inglés' }))).toEqual([
      'en-emma',
    ]);
    expect(ids(filterVoices(VOICES, { ...ALL, language: 'español' }))).toEqual(['es-lucia', 'es-mateo']);
  });

  it('favourites, recents (most recent first), recommended and custom', () => {
    expect(ids(filterVoices(VOICES, { ...ALL, category: 'favoritas', favorites: ['en-river'] }))).toEqual([
      'en-river',
    ]);
    expect(
      ids(filterVoices(VOICES, { ...ALL, category: 'recientes', recents: ['en-emma', 'gone', 'es-mateo'] })),
    ).toEqual(['en-emma', 'es-mateo']);
    expect(ids(filterVoices(VOICES, { ...ALL, category: 'recomendadas' }))).toEqual(['es-lucia', 'en-emma']);
    expect(
      ids(filterVoices(VOICES, { ...ALL, category: 'recomendadas', recommendedIds: ['en-river'] })),
    ).toEqual(['en-river']);
    expect(filterVoices(VOICES, { ...ALL, category: 'personalizadas' })).toEqual([]);
  });
});

describe('paging (spec §2, §5)', () => {
  const items = Array.from({ length: 25 }, (_, i) => i + 1);

  it('eight per page', () => {
    expect(pageCount(25)).toBe(4);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(items, 1)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(pageOf(items, 4)).toEqual([25]);
    expect(pageOf(items, 9)).toEqual([25]);
    expect(clampPage(0, 25)).toBe(1);
  });

  it('at most five page buttons, a window around the current page', () => {
    expect(pageButtons(1, 1)).toEqual([1]);
    expect(pageButtons(2, 4)).toEqual([1, 2, 3, 4]);
    expect(pageButtons(1, 12)).toEqual([1, 2, 3, 4, 5]);
    expect(pageButtons(6, 12)).toEqual([4, 5, 6, 7, 8]);
    expect(pageButtons(12, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageButtons(11, 12)).toEqual([8, 9, 10, 11, 12]);
    expect(pageButtons(3, 0)).toEqual([1]);
  });
});

describe('favourites and recents (spec §3, §4)', () => {
  it('keeps the last ten recents, newest first, without duplicates', () => {
    let recents: string[] = [];
    for (let i = 0; i < 14; i++) recents = pushRecent(recents, `v${i}`);
    expect(recents).toHaveLength(MAX_RECENT_VOICES);
    expect(recents[0]).toBe('v13');
    expect(recents.at(-1)).toBe('v4');
    expect(pushRecent(recents, 'v9').slice(0, 2)).toEqual(['v9', 'v13']);
    expect(pushRecent(recents, 'v9')).toHaveLength(10);
  });

  it('toggles a favourite', () => {
    expect(toggleFavorite([], 'a')).toEqual(['a']);
    expect(toggleFavorite(['a', 'b'], 'a')).toEqual(['b']);
  });

  it('reads stored lists defensively', () => {
    expect(parseIdList(['a', 1, 'b'])).toEqual(['a', 'b']);
    expect(parseIdList('x')).toEqual([]);
    expect(parseIdList(null)).toEqual([]);
  });
});
