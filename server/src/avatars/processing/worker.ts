import { readFile, writeFile } from 'node:fs/promises';
import { serveWorkerJobs } from '../../lib/worker-job.ts';
import { processModel, ProcessingError } from './pipeline.ts';
import type { JobResult, WorkerInput, WorkerStep } from './worker-protocol.ts';

/**
 * The worker thread that processes uploads (run-job.ts starts one per job): reads the uploaded file,
 * runs the pipeline, writes the optimised model and its portrait and reports each step. Cancelling terminates the
 * thread; the parent cleans up the files.
 */
serveWorkerJobs<WorkerInput, JobResult, WorkerStep>(
  async (input, post) => {
    const bytes = new Uint8Array(await readFile(input.inputPath));
    const { model, portrait, ...result } = await processModel(bytes, {
      analyseOnly: input.outputPath === null,
      onStep: (step, progress) => post({ type: 'step', step, progress }),
    });
    if (input.outputPath) await writeFile(input.outputPath, model);
    const withPortrait = Boolean(portrait && input.portraitPath);
    if (portrait && input.portraitPath) await writeFile(input.portraitPath, portrait);
    return { ...result, portrait: withPortrait };
  },
  (error) =>
    error instanceof ProcessingError
      ? { code: error.code, findings: error.findings }
      : { code: 'processing_failed', findings: [] },
);
