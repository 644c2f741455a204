import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from '../../../components/ui/Field.tsx';

/** The email input of the sign-in screens: its label, name, autocomplete and placeholder. */
export function EmailField(
  props: Omit<TextFieldProps, 'label' | 'type' | 'name' | 'autoComplete' | 'placeholder'>,
) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.email')}
      type="email"
      name="email"
      autoComplete="email"
      placeholder={t('auth.emailPlaceholder')}
      {...props}
    />
  );
}
