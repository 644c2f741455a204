import type { ModelFinding } from '@alma/protocol';
import { startWorker } from '../../lib/worker-thread.ts';
import type { ProcessingStep } from './pipeline.ts';
import { threadCpuMs } from './thread-cpu.ts';
import type { JobResult, WorkerInput, WorkerMessage } from './worker-protocol.ts';

/**
 * Runs one upload's processing on a worker thread (worker.ts; `avatar-worker.js` in the build),
 * inside three limits (SPEC.md AU-3): CPU time in proportion to the file's size, a V8 heap of its
 * own (`resourceLimits`: a job that blows up dies alone), and the plan's wall-clock time. Aborting
 * terminates the thread at once, whatever it is doing.
 */

export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** What the checks or the validator found, for the user (AU-4). */
    readonly findings: ModelFinding[] = [],
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

/** CPU a job may use: 10 s, plus 2 s per started MB of the upload (a 50 MB model gets 110 s). */
export const cpuBudgetFor = (bytes: number): number => 10_000 + Math.ceil(bytes / 1_048_576) * 2_000;
/** The worker's V8 heap; typed arrays live outside it, bounded by the checks before processing. */
export const PROCESSING_HEAP_MB = 768;
/** How often the parent reads the worker's CPU time. */
const CPU_POLL_MS = 200;

export interface RunJobOptions extends WorkerInput {
  signal?: AbortSignal;
  /** Wall-clock limit (the plan's `maxProcessingTime`). */
  timeoutMs: number;
  /** CPU milliseconds the thread may use; `cpuBudgetFor(size)` for uploads. */
  cpuBudgetMs: number;
  /** Overrides PROCESSING_HEAP_MB (tests). */
  heapMb?: number;
  onStep?: (step: ProcessingStep, progress: number) => void;
}

export function runProcessingJob(options: RunJobOptions): Promise<JobResult> {
  const { signal, timeoutMs, cpuBudgetMs, onStep, inputPath, outputPath, portraitPath = null } = options;
  const heapMb = options.heapMb ?? PROCESSING_HEAP_MB;
  return new Promise<JobResult>((resolve, reject) => {
    if (signal?.aborted) return reject(new JobFailure('cancelled', 'cancelled'));
    const worker = startWorker(
      { source: new URL('./worker.ts', import.meta.url), bundle: 'avatar-worker.js' },
      { inputPath, outputPath, portraitPath } satisfies WorkerInput,
      { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.min(64, heapMb / 4), stackSizeMb: 4 },
    );
    let settled = false;
    /** Set by the worker's first message: its CPU time where readable, else wall-clock time. */
    let usedMs: (() => number) | null = null;
    const started = Date.now();
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(meter);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const fail = (code: string, message: string) => finish(() => reject(new JobFailure(code, message)));
    const onAbort = () => fail('cancelled', 'cancelled');
    const timer = setTimeout(() => fail('timeout', `processing took longer than ${timeoutMs} ms`), timeoutMs);
    const meter = setInterval(() => {
      const used = usedMs?.();
      if (used === undefined) return; // not started yet
      if (used > cpuBudgetMs)
        fail('too_complex', `used ${used} ms of CPU, over its budget of ${cpuBudgetMs} ms`);
    }, CPU_POLL_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'thread') {
        const id = message.threadId;
        usedMs = () => (id === null ? null : threadCpuMs(id)) ?? Date.now() - started;
      } else if (message.type === 'step') onStep?.(message.step, message.progress);
      else if (message.type === 'done') finish(() => resolve(message.result));
      else finish(() => reject(new JobFailure(message.code, message.message, message.findings)));
    });
    worker.on('error', (error: Error & { code?: string }) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? fail('too_complex', `ran out of its ${heapMb} MB of memory`)
        : fail('processing_failed', error.message),
    );
    worker.on('exit', (code) => fail('processing_failed', `worker stopped (exit ${code})`));
  });
}
