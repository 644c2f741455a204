import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
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

/**
 * Called inside a worker thread: on Linux the thread runs `nice` (0–19) lower than the process,
 * so that when the cores are all taken the scheduler gives the server's main thread its turn
 * first. setpriority() on a thread id changes that thread alone (a Linux thread is a task of its
 * own). Best effort: elsewhere, or refused, the thread runs at the process's priority.
 */
export function lowerThreadPriority(nice: number): void {
  if (nice <= 0) return;
  try {
    const threadId = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ', 1)[0]);
    if (threadId > 0) setPriority(threadId, Math.min(19, getPriority(threadId) + nice));
  } catch {
    // no /proc (not Linux) or not allowed: the process's priority
  }
}
