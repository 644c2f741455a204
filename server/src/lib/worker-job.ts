import type { ModelFinding } from '@alma/protocol';
import { parentPort, workerData, type ResourceLimits } from 'node:worker_threads';
import { currentThreadId, threadCpuMs } from './thread-cpu.ts';
import { startWorker } from './worker-thread.ts';

/**
 * One job on a worker thread of its own, off the event loop, inside its limits: wall-clock time,
 * optionally CPU time (the thread's own, so a busy machine does not count against it) and a V8
 * heap (`resourceLimits`: a job that blows up dies alone). Aborting terminates the thread at once,
 * whatever it is doing. Avatar processing (SPEC.md AU-3) and voice analysis (VU-3) run this way.
 */

export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** What the checks or the validator found, for the user (avatars, AU-4). */
    readonly findings: ModelFinding[] = [],
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

/** What a job's thread posts: its kernel thread id first, then progress of its own, then the end. */
export type WorkerJobMessage<R, Progress = never> =
  /** First message: the thread's kernel id, for its CPU time (thread-cpu.ts); null off Linux. */
  | { type: 'thread'; threadId: number | null }
  | { type: 'done'; result: R }
  | { type: 'error'; code: string; message: string; findings?: ModelFinding[] }
  | Progress;

export interface WorkerJobOptions<Progress> {
  /** The thread's module and its bundle in the build (lib/worker-thread.ts). */
  entry: { source: URL; bundle: string };
  input: unknown;
  resourceLimits?: ResourceLimits;
  signal?: AbortSignal | undefined;
  /** Wall-clock limit. */
  timeoutMs: number;
  /** CPU milliseconds the thread may use; unset: no CPU budget. */
  cpuBudgetMs?: number;
  /** Whatever else the thread posts (progress). */
  onProgress?: (message: Progress) => void;
}

/** How often the parent reads the worker's CPU time. */
const CPU_POLL_MS = 200;

export function runWorkerJob<R, Progress = never>(options: WorkerJobOptions<Progress>): Promise<R> {
  const { signal, timeoutMs, cpuBudgetMs, onProgress } = options;
  const heapMb = options.resourceLimits?.maxOldGenerationSizeMb;
  return new Promise<R>((resolve, reject) => {
    if (signal?.aborted) return reject(new JobFailure('cancelled', 'cancelled'));
    const worker = startWorker(options.entry, options.input, options.resourceLimits);
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
    const timer = setTimeout(() => fail('timeout', `the job took longer than ${timeoutMs} ms`), timeoutMs);
    const meter = setInterval(() => {
      const used = usedMs?.();
      if (used === undefined || cpuBudgetMs === undefined) return; // not started yet, or no budget
      if (used > cpuBudgetMs)
        fail('too_complex', `used ${used} ms of CPU, over its budget of ${cpuBudgetMs} ms`);
    }, CPU_POLL_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: WorkerJobMessage<R, Progress>) => {
      const known = message as WorkerJobMessage<R>;
      if (known.type === 'thread') {
        const id = known.threadId;
        usedMs = () => (id === null ? null : threadCpuMs(id)) ?? Date.now() - started;
      } else if (known.type === 'done') finish(() => resolve(known.result));
      else if (known.type === 'error')
        finish(() => reject(new JobFailure(known.code, known.message, known.findings)));
      else onProgress?.(message as Progress);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? fail('too_complex', `ran out of its ${heapMb} MB of memory`)
        : fail('processing_failed', error.message),
    );
    worker.on('exit', (code) => fail('processing_failed', `worker stopped (exit ${code})`));
  });
}

/**
 * The thread's side of `runWorkerJob`: tells its thread id, runs the job on its input and posts the
 * result, or the failure with the code `failureOf` reads from the error.
 */
export async function serveWorkerJob<I, R, Progress = never>(
  run: (input: I, post: (message: Progress) => void) => Promise<R>,
  failureOf: (error: unknown) => { code: string; findings?: ModelFinding[] },
): Promise<void> {
  const post = (message: WorkerJobMessage<R, Progress>) => parentPort?.postMessage(message);
  post({ type: 'thread', threadId: currentThreadId() });
  try {
    post({ type: 'done', result: await run(workerData as I, post) });
  } catch (error) {
    post({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
      ...failureOf(error),
    });
  }
}
