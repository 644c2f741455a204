import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread written in TypeScript. From source (tests, `tsx`) the `.ts` file is
 * loaded through tsx's ESM loader; in the built server it is the bundle `dist/<bundle>` that
 * server/build.mjs emits beside `server.js` (this module is bundled into server.js, so its
 * `import.meta.url` is that folder).
 */
export function startWorker(
  entry: { source: URL; bundle: string },
  workerData: unknown,
  resourceLimits?: ResourceLimits,
): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL(`./${entry.bundle}`, import.meta.url), { workerData, resourceLimits });
  // tsx's ESM entry (its `exports` "import" condition for ./esm/api).
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.source.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}
