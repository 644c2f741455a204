import 'i18next';
import type { AppTranslation } from './lib/i18n.ts';

/** Translation keys are typed from locales/es.json plus the protocol's errors and validation. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: AppTranslation };
  }
}
