import { useTranslation } from 'react-i18next';

/** The first focusable element of a page: jumps past the header to the main content. */
export function SkipLink({ target = '#main' }: { target?: string }) {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href={target}>
      {t('app.skipToContent')}
    </a>
  );
}
