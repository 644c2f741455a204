import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/Icon.tsx';
import type { FilterChange, PickerFilters } from './filters.ts';
import { useVoiceLabels } from './labels.ts';
import { LANGUAGE_FILTERS, VOLUME, type CategoryFilter, type LanguageFilter } from './logic.ts';
import { useVoices } from './store.ts';

/** The picker's search, language filter, preview volume and category chips (spec §2). */
export function VoiceFilters({
  filters,
  categories,
  onChange,
}: {
  filters: PickerFilters;
  categories: CategoryFilter[];
  onChange: (change: FilterChange) => void;
}) {
  const { t } = useTranslation();
  const labels = useVoiceLabels();
  const volume = useVoices((s) => s.volume);
  const setVolume = useVoices((s) => s.setVolume);
  return (
    <div className="voice-selector__controls">
      <input
        type="search"
        className="input voice-selector__search"
        placeholder={t('voiceSelector.searchPlaceholder')}
        aria-label={t('voiceSelector.search')}
        value={filters.query}
        onChange={(e) => onChange({ type: 'query', query: e.target.value })}
      />
      <div className="voice-selector__row">
        <label className="voice-selector__field">
          <span>{t('voiceSelector.language')}</span>
          <select
            className="input"
            value={filters.language}
            onChange={(e) => onChange({ type: 'language', language: e.target.value as LanguageFilter })}
          >
            {LANGUAGE_FILTERS.map((l) => (
              <option key={l} value={l}>
                {labels.language(l)}
              </option>
            ))}
          </select>
        </label>
        <label className="voice-selector__field voice-selector__volume">
          <span>
            <Icon name="volume" size={16} /> {t('voiceSelector.volume')}
          </span>
          <input
            type="range"
            min={VOLUME.min}
            max={VOLUME.max}
            step={VOLUME.step}
            value={volume}
            aria-valuetext={`${Math.round(volume * 100)}%`}
            onChange={(e) => setVolume(Number(e.target.value))}
          />
        </label>
      </div>
      <div className="voice-selector__chips" role="group" aria-label={t('voiceSelector.category')}>
        {categories.map((c) => (
          <button
            key={c}
            type="button"
            className="voice-chip"
            aria-pressed={filters.category === c}
            onClick={() => onChange({ type: 'category', category: c })}
          >
            {labels.category(c)}
          </button>
        ))}
      </div>
    </div>
  );
}
