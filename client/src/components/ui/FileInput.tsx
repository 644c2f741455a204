import { useState, type ChangeEvent, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import './file-input.css';

/**
 * A file input in the app's theme and language: the browser's own control (which says "Choose
 * file" in the browser's language, whatever the app's) stays in the page for the keyboard, screen
 * readers and tests but out of sight — laid over the themed button and the chosen file's name
 * shown instead, so a click on them opens the file chooser. Name it with a `<label htmlFor>`.
 */
export function FileInput({
  inputRef,
  onChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> & { inputRef?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <span className="file-input" data-disabled={props.disabled ? 'true' : undefined}>
      <input
        {...props}
        ref={inputRef}
        type="file"
        className="file-input__native"
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setChosen(event.target.files?.[0]?.name ?? null);
          onChange?.(event);
        }}
      />
      <span className="button button--ghost file-input__button" aria-hidden="true">
        {t('common.chooseFile')}
      </span>
      <span className="file-input__name" aria-hidden="true">
        {chosen ?? t('common.noFileChosen')}
      </span>
    </span>
  );
}
