import { createRoot } from 'react-dom/client';
import '../styles/global.css';
import { initTheme } from '../lib/theme.ts';
import { Providers } from './providers.tsx';
import { AppRouter } from './router.tsx';

initTheme();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <Providers>
    <AppRouter />
  </Providers>,
);
