import type { ProcessingResult, ProcessingStep } from './pipeline.ts';

/** What run-job.ts and worker.ts exchange, besides lib/worker-job.ts's messages. */
export interface WorkerInput {
  inputPath: string;
  /** Null: only analyse (the compatibility check); nothing is written. */
  outputPath: string | null;
  /** Where the portrait goes (AV-7); null: none is written. */
  portraitPath?: string | null;
}

export type JobResult = Omit<ProcessingResult, 'model' | 'portrait'> & { portrait: boolean };

export type WorkerStep = { type: 'step'; step: ProcessingStep; progress: number };
