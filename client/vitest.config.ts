import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeParts } from './locale-parts.ts';

/**
 * Client unit tests, in a DOM. The environment is the client's own jsdom (src/test/
 * jsdom-environment.ts): vitest's built-in `jsdom` loads the jsdom resolved at the workspace
 * root (31, Node ≥ 22), which cannot start on the Node 20 this project supports.
 */
export default defineConfig({
  plugins: [react(), localeParts()],
  test: {
    name: 'client',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: './src/test/jsdom-environment.ts',
    // Both languages' texts in the app's i18n instance (the app loads them on demand).
    setupFiles: ['./src/test/setup.ts'],
  },
});
