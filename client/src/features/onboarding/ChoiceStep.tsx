import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/Icon.tsx';

/**
 * One choice step of the onboarding: a titled radio grid of catalogue items and the (not yet
 * available) upload button.
 */
export function ChoiceStep<T extends { id: string }>({
  name,
  headingRef,
  title,
  text,
  listLabel,
  gridClassName,
  cardClassName,
  items,
  value,
  onChange,
  renderCard,
  uploadLabel,
}: {
  /** The radio group's name; also prefixes the upload hint's id. */
  name: string;
  headingRef: Ref<HTMLHeadingElement>;
  title: string;
  text: string;
  listLabel: string;
  gridClassName: string;
  cardClassName: string;
  items: readonly T[];
  value: string | null;
  onChange: (id: string) => void;
  renderCard: (item: T) => ReactNode;
  uploadLabel: string;
}) {
  const { t } = useTranslation();
  const uploadHintId = `${name}-upload-soon`;
  return (
    <fieldset className="choice-fieldset">
      <legend>
        <h2 ref={headingRef} tabIndex={-1} className="onboarding__step-title">
          {title}
        </h2>
        <span className="onboarding__step-text">{text}</span>
      </legend>
      <div className={gridClassName} aria-label={listLabel} role="radiogroup">
        {items.map((item) => (
          <label key={item.id} className={cardClassName}>
            <input
              type="radio"
              name={name}
              value={item.id}
              checked={value === item.id}
              onChange={() => onChange(item.id)}
              className="choice-card__input"
            />
            {renderCard(item)}
          </label>
        ))}
      </div>
      <div className="upload-soon">
        <button type="button" className="button button--ghost" disabled aria-describedby={uploadHintId}>
          <Icon name="upload" size={18} />
          {uploadLabel}
        </button>
        <span id={uploadHintId} className="field__hint">
          {t('onboarding.uploadSoon')}
        </span>
      </div>
    </fieldset>
  );
}
