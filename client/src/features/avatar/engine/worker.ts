/**
 * The animation worker: runs the pure `computeFrame` off the main thread (pool.ts). One request
 * in, one response out; an exception answers with an error, so the pool computes in the page.
 */
import { createWorkerCore, type WorkerMessage } from './worker-core';
import type { FrameResponse } from './pool';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null;
  postMessage(message: FrameResponse): void;
}

const scope = self as unknown as WorkerScope;
const core = createWorkerCore();

scope.onmessage = (event) => {
  const response = core.handle(event.data);
  if (response) scope.postMessage(response);
};
