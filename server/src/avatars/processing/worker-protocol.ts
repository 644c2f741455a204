import type { ProcessingError, ProcessingResult, ProcessingStep } from './pipeline.ts';

/** Messages between run-job.ts and worker.ts. */
export interface WorkerInput {
  inputPath: string;
  /** Null: only analyse (the compatibility check); nothing is written. */
  outputPath: string | null;
}

export type JobResult = Omit<ProcessingResult, 'model'>;

export type WorkerMessage =
  | { type: 'step'; step: ProcessingStep; progress: number }
  | { type: 'done'; result: JobResult }
  | { type: 'error'; code: ProcessingError['code'] | 'processing_failed'; message: string };
