import { defineConfig } from 'vitest/config';

/**
 * One `vitest run` for every package: unit tests beside the code, plus the server-level suites
 * in tests/ (integration, socket, replay, fault, fuzz). End-to-end tests run with Playwright.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', include: ['protocol/src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          environment: 'node',
          // A file's first spoken reply starts and warms the speech workers (S-12): seconds of CPU
          // beside the other files running in parallel.
          testTimeout: 60_000,
        },
      },
      'client/vitest.config.ts',
      {
        test: {
          name: 'system',
          include: ['tests/{integration,socket,replays,faults,fuzz,tooling,scale}/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
