import { readFile, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { processModel, ProcessingError } from './pipeline.ts';
import { currentThreadId } from './thread-cpu.ts';
import type { WorkerInput, WorkerMessage } from './worker-protocol.ts';

/**
 * The worker thread that processes one upload (run-job.ts starts it): reads the uploaded file,
 * runs the pipeline, writes the optimised model and its portrait and reports each step. Cancelling terminates the
 * thread; the parent cleans up the files.
 */
const input = workerData as WorkerInput;
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
post({ type: 'thread', threadId: currentThreadId() });

try {
  const bytes = new Uint8Array(await readFile(input.inputPath));
  const { model, portrait, ...result } = await processModel(bytes, {
    analyseOnly: input.outputPath === null,
    onStep: (step, progress) => post({ type: 'step', step, progress }),
  });
  if (input.outputPath) await writeFile(input.outputPath, model);
  const withPortrait = Boolean(portrait && input.portraitPath);
  if (portrait && input.portraitPath) await writeFile(input.portraitPath, portrait);
  post({ type: 'done', result: { ...result, portrait: withPortrait } });
} catch (error) {
  post({
    type: 'error',
    code: error instanceof ProcessingError ? error.code : 'processing_failed',
    message: error instanceof Error ? error.message : String(error),
    findings: error instanceof ProcessingError ? error.findings : [],
  });
}
