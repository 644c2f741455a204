import { startWorker } from '../../lib/worker-thread.ts';
import type { ProcessingStep } from './pipeline.ts';
import type { JobResult, WorkerInput, WorkerMessage } from './worker-protocol.ts';

/**
 * Runs one upload's processing on a worker thread (worker.ts; `avatar-worker.js` in the build).
 * Aborting terminates the thread at once; so does the time limit.
 */

export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export interface RunJobOptions extends WorkerInput {
  signal?: AbortSignal;
  timeoutMs: number;
  onStep?: (step: ProcessingStep, progress: number) => void;
}

export function runProcessingJob(options: RunJobOptions): Promise<JobResult> {
  const { signal, timeoutMs, onStep, inputPath, outputPath } = options;
  return new Promise<JobResult>((resolve, reject) => {
    if (signal?.aborted) return reject(new JobFailure('cancelled', 'cancelled'));
    const worker = startWorker(
      { source: new URL('./worker.ts', import.meta.url), bundle: 'avatar-worker.js' },
      { inputPath, outputPath } satisfies WorkerInput,
    );
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = () => finish(() => reject(new JobFailure('cancelled', 'cancelled')));
    const timer = setTimeout(
      () => finish(() => reject(new JobFailure('timeout', `processing took longer than ${timeoutMs} ms`))),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'step') onStep?.(message.step, message.progress);
      else if (message.type === 'done') finish(() => resolve(message.result));
      else finish(() => reject(new JobFailure(message.code, message.message)));
    });
    worker.on('error', (error) => finish(() => reject(new JobFailure('processing_failed', error.message))));
    worker.on('exit', (code) =>
      finish(() => reject(new JobFailure('processing_failed', `worker stopped (exit ${code})`))),
    );
  });
}
