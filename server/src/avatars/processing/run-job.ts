import { runWorkerJob } from '../../lib/worker-job.ts';
import type { ProcessingStep } from './pipeline.ts';
import type { JobResult, WorkerInput, WorkerStep } from './worker-protocol.ts';

export { JobFailure } from '../../lib/worker-job.ts';

/**
 * Runs one upload's processing on a worker thread (worker.ts; `avatar-worker.js` in the build),
 * inside three limits (SPEC.md AU-3): CPU time in proportion to the file's size, a V8 heap of its
 * own (`resourceLimits`: a job that blows up dies alone), and the plan's wall-clock time. Aborting
 * terminates the thread at once, whatever it is doing.
 */

/** CPU a job may use: 10 s, plus 2 s per started MB of the upload (a 50 MB model gets 110 s). */
export const cpuBudgetFor = (bytes: number): number => 10_000 + Math.ceil(bytes / 1_048_576) * 2_000;
/** The worker's V8 heap; typed arrays live outside it, bounded by the checks before processing. */
export const PROCESSING_HEAP_MB = 768;

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
  const { onStep, inputPath, outputPath, portraitPath = null } = options;
  const heapMb = options.heapMb ?? PROCESSING_HEAP_MB;
  return runWorkerJob<WorkerInput, JobResult, WorkerStep>({
    entry: { source: new URL('./worker.ts', import.meta.url), bundle: 'avatar-worker.js' },
    input: { inputPath, outputPath, portraitPath } satisfies WorkerInput,
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: Math.min(64, heapMb / 4),
      stackSizeMb: 4,
    },
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    cpuBudgetMs: options.cpuBudgetMs,
    onProgress: (message) => onStep?.(message.step, message.progress),
  });
}
