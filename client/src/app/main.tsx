import { createRoot } from 'react-dom/client';
import '../styles/global.css';
import { currentLanguage, setLanguage } from '../lib/i18n.ts';
import { initTheme } from '../lib/theme.ts';
import { Providers } from './providers.tsx';
import { AppRouter } from './router.tsx';
import { preloadScreens } from './routes.tsx';

initTheme();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const app = createRoot(root);
preloadScreens(window.location.pathname);
// The shell's texts in the detected language are their own chunk: render once they are here (or,
// should that fetch fail, with the keys rather than a blank page). Each screen loads its own
// texts with its chunk (routes.tsx).
void setLanguage(currentLanguage(), ['shell'])
  .catch(() => undefined)
  .then(() =>
    app.render(
      <Providers>
        <AppRouter />
      </Providers>,
    ),
  );
