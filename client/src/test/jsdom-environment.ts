import { JSDOM } from 'jsdom';
import { populateGlobal, type Environment } from 'vitest/runtime';

/**
 * A jsdom test environment that loads the client's own jsdom (26, Node 20 compatible).
 * Vitest's built-in `jsdom` environment imports the jsdom resolved beside vitest at the root,
 * which is jsdom 31 and needs Node ≥ 22 (its undici uses zlib zstd). client/vitest.config.ts
 * sets it for every client test (a per-file `@vitest-environment` comment takes only names).
 */
export default {
  name: 'jsdom',
  viteEnvironment: 'client',
  setup(global: Record<string | symbol, unknown>) {
    const dom = new JSDOM('<!DOCTYPE html><html lang="es"><head></head><body></body></html>', {
      url: 'http://localhost:3000/',
      pretendToBeVisual: true,
    });
    const { keys, originals } = populateGlobal(global, dom.window, { bindFunctions: true });
    return {
      teardown(target: Record<string | symbol, unknown>) {
        dom.window.close();
        keys.forEach((key) => delete target[key]);
        originals.forEach((value, key) => {
          target[key] = value;
        });
      },
    };
  },
} satisfies Environment;
