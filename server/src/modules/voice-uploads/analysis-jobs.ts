import type { ErrorCode, JobQueueState, VoiceAnalysis } from '@alma/protocol';
import { createFairQueue, createLocalRunner } from '../../lib/fair-queue.ts';
import { createWorkerJobs, JobFailure } from '../../lib/worker-job.ts';
import type { AnalysisInput } from './analysis-worker.ts';

/**
 * Voice analysis as jobs (SPEC.md VU-1, M-9). The upload request stores the sample, queues its
 * analysis and waits for the outcome, whichever instance's worker runs it, up to a limit. Each
 * job runs on a worker thread of its own (analysis-worker.ts), off the event loop, inside the same
 * limit. In one process (no REDIS_URL) this process's workers run every job; with Redis
 * (`createRedisAnalysisQueue`) any instance's do, under a lease.
 */

export interface AnalysisJob {
  /** The voice's id: one job per upload. */
  id: string;
  userId: string;
  /** The stored sample's blob name. */
  file: string;
}

/** What a job ends with; plain data, so it can cross instances. */
export type AnalysisOutcome =
  { ok: true; analysis: VoiceAnalysis } | { ok: false; code: ErrorCode; detail: string };

export interface AnalysisQueue {
  /**
   * Queues the job and resolves with its outcome from whichever worker ran it — `unavailable`
   * when none finished it within `limitMs` (it is stopped then, wherever it waits or runs).
   */
  analyse(job: AnalysisJob, limitMs: number): Promise<AnalysisOutcome>;
  /** This instance's view of the queue (`/health`). */
  state(): Promise<JobQueueState>;
  /** After start: heartbeats, and jobs whose instance died are taken back. */
  start(): Promise<void>;
  /** Stops taking jobs and stops the ones running here (shutdown). */
  close(): Promise<void>;
}

export interface AnalysisQueueDeps {
  instanceId: string;
  /** Jobs this instance runs at once (VOICE_JOB_WORKERS); 0 with Redis: it runs none. */
  workers: number;
  /** Runs one job here to its outcome (reads the sample, analyses it); never throws. */
  run: (job: AnalysisJob, limitMs: number, signal: AbortSignal) => Promise<AnalysisOutcome>;
  /** Removes the sample of a job nobody waits for any more (its instance died). */
  discard: (job: AnalysisJob) => Promise<void>;
}

const VOICE_ANALYSIS_WORKER = {
  source: new URL('./analysis-worker.ts', import.meta.url),
  bundle: 'voice-analysis-worker.js',
};
/** The analysis thread's V8 heap; the PCM lives outside it, in typed arrays. */
const ANALYSIS_HEAP_MB = 256;

/**
 * Decodes and analyses samples on worker threads, `threads` of them kept warm between jobs; a
 * damaged or foreign file is its VU-2 code, the limit passing or a stop `unavailable`.
 */
export function createSampleAnalyser(options: { ffmpeg: string | null | undefined; threads: number }) {
  const jobs = createWorkerJobs<AnalysisInput, VoiceAnalysis>({
    entry: VOICE_ANALYSIS_WORKER,
    resourceLimits: { maxOldGenerationSizeMb: ANALYSIS_HEAP_MB },
    keepIdle: options.threads,
  });
  return {
    async analyse(
      data: Uint8Array,
      limits: { timeoutMs: number; signal: AbortSignal },
    ): Promise<AnalysisOutcome> {
      try {
        return { ok: true, analysis: await jobs.run({ data, ffmpeg: options.ffmpeg }, limits) };
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        const code = error instanceof JobFailure ? error.code : 'server_error';
        if (code === 'voice_format_invalid' || code === 'voice_file_damaged')
          return { ok: false, code, detail };
        const stopped = code === 'timeout' || code === 'cancelled';
        return { ok: false, code: stopped ? 'unavailable' : 'server_error', detail };
      }
    },
    close: jobs.close,
  };
}

/** What a job that no worker finished in time ends with. */
export const timedOut = (limitMs: number): AnalysisOutcome => ({
  ok: false,
  code: 'unavailable',
  detail: `no worker analysed the sample within ${limitMs} ms`,
});

/** The outcome, or `timedOut` once `limitMs` passed (then `expire` stops the job). */
export function withinLimit(
  outcome: Promise<AnalysisOutcome>,
  limitMs: number,
  expire: () => void,
): Promise<AnalysisOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<AnalysisOutcome>((resolve) => {
    timer = setTimeout(() => {
      expire();
      resolve(timedOut(limitMs));
    }, limitMs);
  });
  return Promise.race([outcome, limit]).finally(() => clearTimeout(timer));
}

/** This instance's analysis workers: a fair queue (one job per user at a time) of worker threads. */
export function createAnalysisWorkers(deps: Pick<AnalysisQueueDeps, 'workers' | 'run'>) {
  const queue = createFairQueue({ workers: Math.max(1, deps.workers) });
  type Queued = AnalysisJob & { limitMs: number; settle: (outcome: AnalysisOutcome) => void };
  const runner = createLocalRunner<Queued>({
    queue,
    run: async (job, signal) => job.settle(await deps.run(job, job.limitMs, signal)),
  });
  return {
    queue,
    /** Runs the job here; the outcome once it ran (never, if it is stopped before it starts). */
    run: (job: AnalysisJob, limitMs: number) =>
      new Promise<AnalysisOutcome>((settle) => runner.enqueue({ ...job, limitMs, settle })),
    stop: (id: string) => runner.stop(id),
    state: (instance: string, waiting: number): JobQueueState => ({
      instance,
      workers: deps.workers,
      running: [...runner.running.keys()],
      waiting,
      finished: runner.finished(),
    }),
    /** Jobs queued here and not started. */
    waitingHere: () => queue.size() - runner.running.size,
    close: () => {
      queue.close();
      runner.abortAll();
    },
  };
}

/** One process: every job runs here. */
export function createLocalAnalysisQueue(deps: AnalysisQueueDeps): AnalysisQueue {
  const workers = createAnalysisWorkers({ ...deps, workers: Math.max(1, deps.workers) });
  return {
    analyse: (job, limitMs) => withinLimit(workers.run(job, limitMs), limitMs, () => workers.stop(job.id)),
    state: async () => workers.state(deps.instanceId, workers.waitingHere()),
    start: async () => undefined,
    close: async () => workers.close(),
  };
}
