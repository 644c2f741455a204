import { useTranslation } from 'react-i18next';
import type { VoiceLanguage } from '@alma/protocol';
import type { CategoryFilter, LanguageFilter } from './logic.ts';

const DATA_CATEGORIES: readonly string[] = ['femenina', 'masculina', 'neutral'];

/** The interface's names for voice categories and languages (the catalogue's are Spanish words). */
export function useVoiceLabels() {
  const { t } = useTranslation();
  return {
    category: (c: CategoryFilter): string =>
      DATA_CATEGORIES.includes(c)
        ? t(`voices.categories.${c as 'femenina'}`)
        : t(`voiceSelector.categories.${c as 'todos'}`),
    language: (l: LanguageFilter | VoiceLanguage): string =>
      t(`voiceSelector.languages.${l === 'español' ? 'es' : l === 'inglés' ? 'en' : 'todos'}`),
  };
}
