import { i18n, loadLanguage } from '../lib/i18n.ts';

// The app loads one language's texts before its first render (app/main.tsx); tests use both.
await loadLanguage('es');
await loadLanguage('en');
await i18n.changeLanguage(i18n.language);
