import type { ModelFinding } from '@alma/protocol';
import { parentPort, type ResourceLimits, type Worker } from 'node:worker_threads';
import { currentThreadId, threadCpuMs } from './thread-cpu.ts';
import { startWorker } from './worker-thread.ts';

/**
 * Jobs on worker threads, off the event loop, each inside its limits: wall-clock time, optionally
 * CPU time (the thread's own, so a busy machine does not count against it) and a V8 heap
 * (`resourceLimits`: a job that blows up dies alone). Aborting terminates the thread at once,
 * whatever it is doing. A thread that ended its job well may wait for the next (`keepIdle`), so
 * short jobs do not pay a thread's start each. Avatar processing (SPEC.md AU-3) and voice
 * analysis (VU-3) run this way.
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

/** What a job's thread posts: its kernel thread id once, then per job progress of its own and the end. */
export type WorkerJobMessage<R, Progress = never> =
  /** First message: the thread's kernel id, for its CPU time (thread-cpu.ts); null off Linux. */
  | { type: 'thread'; threadId: number | null }
  | { type: 'done'; result: R }
  | { type: 'error'; code: string; message: string; findings?: ModelFinding[] }
  | Progress;

export interface WorkerJobOptions<Progress> {
  signal?: AbortSignal | undefined;
  /** Wall-clock limit. */
  timeoutMs: number;
  /** CPU milliseconds the job may use; unset: no CPU budget. */
  cpuBudgetMs?: number;
  /** Whatever else the thread posts (progress). */
  onProgress?: (message: Progress) => void;
}

/** How often the parent reads the worker's CPU time. */
const CPU_POLL_MS = 200;

interface Thread {
  worker: Worker;
  /** The thread's CPU milliseconds so far, once it has told its id (else wall-clock time). */
  cpuMs: () => number | null;
}

export function createWorkerJobs<I, R, Progress = never>(options: {
  /** The thread's module and its bundle in the build (lib/worker-thread.ts). */
  entry: { source: URL; bundle: string };
  resourceLimits?: ResourceLimits;
  /** Threads kept waiting for the next job; 0: each job gets a new thread. */
  keepIdle?: number;
}) {
  const idle: Thread[] = [];
  const heapMb = options.resourceLimits?.maxOldGenerationSizeMb;

  function spawn(): Thread {
    const worker = startWorker(options.entry, null, options.resourceLimits);
    const started = Date.now();
    const thread: Thread = { worker, cpuMs: () => null };
    worker.on('message', (message: WorkerJobMessage<R>) => {
      if (message.type !== 'thread') return;
      const id = message.threadId;
      thread.cpuMs = () => (id === null ? null : threadCpuMs(id)) ?? Date.now() - started;
    });
    worker.on('exit', () => {
      const at = idle.indexOf(thread);
      if (at >= 0) idle.splice(at, 1);
    });
    return thread;
  }

  function run(input: I, job: WorkerJobOptions<Progress>): Promise<R> {
    const { signal, timeoutMs, cpuBudgetMs, onProgress } = job;
    return new Promise<R>((resolve, reject) => {
      if (signal?.aborted) return reject(new JobFailure('cancelled', 'cancelled'));
      const thread = idle.pop() ?? spawn();
      const { worker } = thread;
      worker.ref();
      const cpuAtStart = thread.cpuMs() ?? 0;
      let settled = false;
      const finish = (fn: () => void, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(meter);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (reusable && idle.length < (options.keepIdle ?? 0)) {
          worker.unref();
          idle.push(thread);
        } else void worker.terminate();
        fn();
      };
      const fail = (code: string, message: string) =>
        finish(() => reject(new JobFailure(code, message)), false);
      const onAbort = () => fail('cancelled', 'cancelled');
      const timer = setTimeout(() => fail('timeout', `the job took longer than ${timeoutMs} ms`), timeoutMs);
      /** Fails the job if it has used more CPU than its budget; true if it did. */
      const overBudget = (): boolean => {
        const used = thread.cpuMs();
        if (used === null || cpuBudgetMs === undefined) return false; // not started yet, or no budget
        if (used - cpuAtStart <= cpuBudgetMs) return false;
        fail('too_complex', `used ${used - cpuAtStart} ms of CPU, over its budget of ${cpuBudgetMs} ms`);
        return true;
      };
      const meter = setInterval(overBudget, CPU_POLL_MS);
      const onMessage = (message: WorkerJobMessage<R, Progress>) => {
        const known = message as WorkerJobMessage<R>;
        if (known.type === 'thread') return;
        // The meter reads between polls; a job that ends between two is held to the same budget.
        if (known.type === 'done') {
          if (!overBudget()) finish(() => resolve(known.result), true);
        } else if (known.type === 'error')
          finish(() => reject(new JobFailure(known.code, known.message, known.findings)), true);
        else onProgress?.(message as Progress);
      };
      const onError = (error: Error & { code?: string }) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? fail('too_complex', `ran out of its ${heapMb} MB of memory`)
          : fail('processing_failed', error.message);
      const onExit = (code: number) => fail('processing_failed', `worker stopped (exit ${code})`);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(input);
    });
  }

  return {
    run,
    /** Ends the idle threads (shutdown). */
    close: async () => {
      await Promise.all(idle.splice(0).map((t) => t.worker.terminate()));
    },
  };
}

/** One job on a thread of its own, ended with the job. */
export function runWorkerJob<I, R, Progress = never>(
  options: WorkerJobOptions<Progress> & {
    entry: { source: URL; bundle: string };
    input: I;
    resourceLimits?: ResourceLimits;
  },
): Promise<R> {
  return createWorkerJobs<I, R, Progress>(options).run(options.input, options);
}

/**
 * The thread's side: tells its thread id, then runs each job it is sent and posts the result, or
 * the failure with the code `failureOf` reads from the error.
 */
export function serveWorkerJobs<I, R, Progress = never>(
  run: (input: I, post: (message: Progress) => void) => Promise<R>,
  failureOf: (error: unknown) => { code: string; findings?: ModelFinding[] },
): void {
  const post = (message: WorkerJobMessage<R, Progress>) => parentPort?.postMessage(message);
  post({ type: 'thread', threadId: currentThreadId() });
  parentPort?.on('message', (input: I) => {
    void run(input, post).then(
      (result) => post({ type: 'done', result }),
      (error: unknown) =>
        post({
          type: 'error',
          message: error instanceof Error ? error.message : String(error),
          ...failureOf(error),
        }),
    );
  });
}
