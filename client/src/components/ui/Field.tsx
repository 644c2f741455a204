import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** A translated error text; shown once the field is touched. */
  error?: string | null;
  hint?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
}

/** The ids that tie a field's input to its label, error and hint. */
function useFieldIds(error: string | null | undefined, hint: ReactNode) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return { id, errorId, hintId, describedBy };
}

/** The frame around a field's input: the label above, the hint or the error below. */
function FieldFrame({
  ids,
  label,
  error,
  hint,
  className,
  children,
}: {
  ids: ReturnType<typeof useFieldIds>;
  label: string;
  error?: string | null;
  hint?: ReactNode;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className}`}>
      <label className="field__label" htmlFor={ids.id}>
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p className="field__hint" id={ids.hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={ids.errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input with its error and hint wired through aria-describedby. */
export function TextField({ label, error, hint, inputRef, className = '', ...input }: TextFieldProps) {
  const ids = useFieldIds(error, hint);
  return (
    <FieldFrame ids={ids} label={label} error={error} hint={hint} className={className}>
      <input
        {...input}
        ref={inputRef}
        id={ids.id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
      />
    </FieldFrame>
  );
}

/** A password input with a show / hide toggle (spec §2 Login). */
export function PasswordField(props: Omit<TextFieldProps, 'type'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const { label, error, hint, inputRef, className = '', ...input } = props;
  const ids = useFieldIds(error, hint);
  return (
    <FieldFrame ids={ids} label={label} error={error} hint={hint} className={className}>
      <div className="field__with-action">
        <input
          {...input}
          ref={inputRef}
          id={ids.id}
          type={visible ? 'text' : 'password'}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy}
        />
        <button
          type="button"
          className="field__action"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')}
          aria-pressed={visible}
          aria-controls={ids.id}
        >
          <Icon name={visible ? 'eyeOff' : 'eye'} size={18} />
        </button>
      </div>
    </FieldFrame>
  );
}

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  error?: string | null;
}

export function Checkbox({ label, error, className = '', ...input }: CheckboxProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`check ${className}`}>
      <input
        {...input}
        id={id}
        type="checkbox"
        className="check__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      <label htmlFor={id} className="check__label">
        {label}
      </label>
      {error ? (
        <p className="field__error check__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
