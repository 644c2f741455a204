import type { ModelFinding } from '@alma/protocol';
import type { ProcessingError, ProcessingResult, ProcessingStep } from './pipeline.ts';

/** Messages between run-job.ts and worker.ts. */
export interface WorkerInput {
  inputPath: string;
  /** Null: only analyse (the compatibility check); nothing is written. */
  outputPath: string | null;
  /** Where the portrait goes (AV-7); null: none is written. */
  portraitPath?: string | null;
}

export type JobResult = Omit<ProcessingResult, 'model' | 'portrait'> & { portrait: boolean };

export type WorkerMessage =
  /** First message: the thread's kernel id, for its CPU time (thread-cpu.ts); null off Linux. */
  | { type: 'thread'; threadId: number | null }
  | { type: 'step'; step: ProcessingStep; progress: number }
  | { type: 'done'; result: JobResult }
  | {
      type: 'error';
      code: ProcessingError['code'] | 'processing_failed';
      message: string;
      findings: ModelFinding[];
    };
