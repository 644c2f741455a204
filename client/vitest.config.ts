import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Client unit tests; files that need a DOM opt in with `// @vitest-environment jsdom`. */
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'client',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
