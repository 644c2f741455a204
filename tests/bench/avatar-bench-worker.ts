/**
 * The avatar bench's worker (a worker_threads stand-in for the browser's module worker,
 * client/src/features/avatar/engine/worker.ts): runs the same worker core and also reports how
 * long each frame took inside the worker.
 */
import { parentPort } from 'node:worker_threads';
import { createWorkerCore, type WorkerMessage } from '../../client/src/features/avatar/engine/worker-core.ts';

const core = createWorkerCore();

parentPort?.on('message', (message: WorkerMessage) => {
  const started = performance.now();
  const response = core.handle(message);
  if (response) parentPort?.postMessage({ ...response, computeUs: (performance.now() - started) * 1000 });
});
