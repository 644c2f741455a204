import type { CategoryFilter, LanguageFilter } from './logic.ts';

/**
 * What the picker's user has set (spec §2 "Voice selector modal"): category chip, language,
 * search and page; changing a filter goes back to the first page.
 */
export interface PickerFilters {
  category: CategoryFilter;
  language: LanguageFilter;
  query: string;
  page: number;
}

export type FilterChange =
  | { type: 'category'; category: CategoryFilter }
  | { type: 'language'; language: LanguageFilter }
  | { type: 'query'; query: string }
  | { type: 'page'; page: number };

export const initialFilters: PickerFilters = { category: 'todos', language: 'todos', query: '', page: 1 };

export function reduceFilters(state: PickerFilters, change: FilterChange): PickerFilters {
  switch (change.type) {
    case 'category':
      return { ...state, category: change.category, page: 1 };
    case 'language':
      return { ...state, language: change.language, page: 1 };
    case 'query':
      return { ...state, query: change.query, page: 1 };
    case 'page':
      return { ...state, page: change.page };
  }
}
