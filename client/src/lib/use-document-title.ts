import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets `<title>` to "<page> · Alma" (follows the UI language). */
export function useDocumentTitle(title: string | null) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = title ? `${title} · ${t('app.name')}` : `${t('app.name')} — ${t('app.tagline')}`;
  }, [title, t]);
}
