import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-thread.ts';
import { encodeMp3File } from './mp3.ts';
import { createSpeechScheduler, type ScheduledJob } from './speech-scheduler.ts';
import type { SpeechCancel, SpeechJob, SpeechJobResult, SpeechWorkerData } from './speech-worker.ts';
import type { SpeechSynthesizer, SynthesisRequest, SynthesisResult } from './types.ts';

/**
 * The builtin synthesiser run in a pool of worker threads (issue 14; SPEC.md S-9, S-10): espeak-ng
 * and the MP3 encoder never run on the event loop, so a reply's text, acks and pings never wait
 * behind audio. Jobs are served by speech-scheduler.ts (first clauses first, bounded); a refused
 * job rejects with SpeechBusyError and its reply goes on as text.
 *
 * Workers start on `start()` (the server calls it before it listens, S-12) or on the first job,
 * and count as ready once warm: espeak loaded and one clause spoken and encoded, so the first
 * reply pays neither the wasm's load nor the encoder's first, unoptimised runs. A worker that
 * dies is replaced; one that dies before it was ready is not replaced until the next job, and the
 * jobs waiting for it fail (their replies go on as text), so a worker that cannot start never
 * loops.
 */
export class SpeechBusyError extends Error {
  constructor() {
    super('speech is busy: the clause could not be voiced in time');
    this.name = 'SpeechBusyError';
  }
}

/**
 * What a clause taken back (aborted, or the pool closing) rejects with: one error, made once. At
 * 200 replies at once most replies go on as text (S-10), each taking back its later clauses, and
 * a DOMException made for each captured a stack trace nobody reads, on the event loop.
 */
const ABORTED = new DOMException('aborted', 'AbortError');
/** What a refused clause rejects with, made once for the same reason (S-10: most, at 200 at once). */
const BUSY = new SpeechBusyError();

export interface SynthesisPoolOptions {
  /** Worker threads; default: the machine's cores (SPEECH_WORKERS). */
  size?: number;
  /** Jobs waiting at most (SPEECH_QUEUE_MAX). */
  maxQueued?: number;
  /** Longest a job may wait for a worker before its reply goes on as text (SPEECH_MAX_WAIT_MS). */
  maxWaitMs?: number;
  /**
   * Clauses each worker speaks while idle once ready, so V8 has optimised espeak's code before
   * replies need it (SPEECH_WARM_UP_CLAUSES; S-12); 0: none. Default DEFAULT_SPEECH_WARM_UP_CLAUSES.
   */
  idleWarmUpClauses?: number;
  /**
   * How much nicer than the process the workers run on Linux, 0–19, so the event loop gets the
   * cores first (SPEECH_WORKER_NICE; S-9). Default DEFAULT_SPEECH_WORKER_NICE; 0: the same.
   */
  nice?: number;
  /** Tests: another worker script in place of speech-worker.ts. */
  entry?: { source: URL; bundle: string };
}

export const DEFAULT_SPEECH_QUEUE_MAX = 512;
export const DEFAULT_SPEECH_MAX_WAIT_MS = 8000;
/**
 * Ten passes over the corpus (48 clauses each): V8 optimises espeak's largest functions only after
 * ~115–445 clauses (tests/bench/warm-up-bench.ts; the last, at ~441, compiles in 20–30 ms, the
 * largest in ~70 ms). Stopped at 96 as it did, the warm-up left 27 compiles (~370 ms of compiling
 * on V8's threads, per worker) and the cheaper clauses after them to the first replies under load.
 */
export const DEFAULT_SPEECH_WARM_UP_CLAUSES = 480;
/** A nice-5 thread weighs a third of a nice-0 one in Linux's scheduler. */
export const DEFAULT_SPEECH_WORKER_NICE = 5;
const SPEECH_WORKER = { source: new URL('./speech-worker.ts', import.meta.url), bundle: 'speech-worker.js' };

interface PoolJob extends ScheduledJob {
  request: SynthesisRequest;
  resolve: (result: SynthesisResult) => void;
  reject: (error: Error) => void;
}

type PostedJob = PoolJob & { id: number };

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Ready, and still speaking its idle warm-up. */
  warming: boolean;
  /** Posted to the worker, in its order: the first is being voiced, a second waits there. */
  jobs: PostedJob[];
}

/**
 * A worker is handed the next first clause while it still voices one, so it starts that clause
 * the moment it is done instead of after a round trip through the event loop (3–5 ms a clause
 * while the loop is busy, measured at 50 sessions: a fifth of the first clauses' time). Only
 * first clauses wait in a worker, so a first clause never waits there behind a later one (S-10).
 */
const IN_FLIGHT = 2;

export interface SynthesisPool extends SpeechSynthesizer {
  readonly size: number;
  /** Worker threads running now, warm or starting. */
  readonly workers: number;
  /** Workers ready and still speaking their idle warm-up (S-12). */
  readonly warming: number;
  /** Workers started and warm (or failed to start: their jobs fail); idempotent. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createSynthesisPool(options: SynthesisPoolOptions = {}): SynthesisPool {
  const size = Math.max(1, options.size ?? availableParallelism());
  const entry = options.entry ?? SPEECH_WORKER;
  const workerData: SpeechWorkerData = {
    idleWarmUpClauses: options.idleWarmUpClauses ?? DEFAULT_SPEECH_WARM_UP_CLAUSES,
    nice: options.nice ?? DEFAULT_SPEECH_WORKER_NICE,
  };
  const scheduler = createSpeechScheduler<PoolJob>({
    maxQueued: options.maxQueued ?? DEFAULT_SPEECH_QUEUE_MAX,
    maxWaitMs: options.maxWaitMs ?? DEFAULT_SPEECH_MAX_WAIT_MS,
  });
  const slots: Slot[] = [];
  /** Resolved as each worker started by `fill` is ready or lost: what `start()` waits for. */
  let starting: Promise<unknown>[] = [];
  /** Why the last worker could not start; no respawn until the next job clears it. */
  let startFailure: Error | null = null;
  let nextId = 0;
  let closed = false;

  /**
   * A worker keeps the process alive while it starts or works (someone awaits it: the server's
   * start, a reply), never while it waits for work: it is unref'd whenever it is idle.
   */
  function spawn(): void {
    const worker = startWorker(entry, workerData);
    const slot: Slot = { worker, ready: false, warming: false, jobs: [] };
    let settle!: () => void;
    starting.push(new Promise<void>((resolve) => (settle = resolve)));
    worker.on('message', (answer: SpeechJobResult) => {
      if ('ready' in answer) {
        // A cold start is no one's wait (S-10): waits count from the first worker ready.
        if (!slots.some((s) => s.ready)) scheduler.restartClocks(performance.now());
        slot.ready = true;
        slot.warming = workerData.idleWarmUpClauses > 0;
        settle();
        slot.worker.unref();
        pump();
        return;
      }
      if ('warmed' in answer) {
        slot.warming = false;
        return;
      }
      const at = slot.jobs.findIndex((j) => j.id === answer.id);
      if (at < 0) return;
      const [job] = slot.jobs.splice(at, 1) as [PostedJob];
      if (slot.jobs.length === 0) slot.worker.unref();
      if (answer.ok) job.resolve(answer.result);
      else if ('cancelled' in answer) job.reject(ABORTED);
      else job.reject(new Error(answer.message));
      pump();
    });
    const lost = (reason: unknown) => {
      if (!slots.includes(slot)) return;
      slots.splice(slots.indexOf(slot), 1);
      settle();
      const error = reason instanceof Error ? reason : new Error(`speech worker exited: ${String(reason)}`);
      for (const job of slot.jobs.splice(0)) job.reject(error);
      if (closed) return;
      if (!slot.ready) {
        startFailure = error;
        // No worker will serve what waits unless one is ready: fail it rather than wait forever.
        if (!slots.some((s) => s.ready)) failWaiting(error);
      }
      pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`speech worker exited with code ${code}`)));
    slots.push(slot);
  }

  function fill(): void {
    if (closed || startFailure) return;
    while (slots.length < size) spawn();
  }

  function failWaiting(error: Error): void {
    for (let job = scheduler.next(); job; job = scheduler.next()) job.reject(error);
  }

  function pump(): void {
    if (closed) return;
    fill();
    for (;;) {
      // An idle worker first; then one voicing a clause, for a first clause only.
      const idle = slots.find((s) => s.ready && s.jobs.length === 0);
      const busy = idle ? undefined : slots.find((s) => s.ready && s.jobs.length < IN_FLIGHT);
      const slot = idle ?? busy;
      if (!slot) return;
      const job = scheduler.next({ firstOnly: !idle });
      if (!job) return;
      post(slot, Object.assign(job, { id: nextId++ }));
    }
  }

  function post(slot: Slot, job: PostedJob): void {
    slot.jobs.push(job);
    slot.worker.ref();
    const { text, language, voice } = job.request;
    const message: SpeechJob = {
      id: job.id,
      text,
      language,
      voice: { voice: voice.voice, rate: voice.rate, pitch: voice.pitch },
    };
    slot.worker.postMessage(message);
    // Aborted while it waits in the worker: taken back there, never voiced (S-10). The worker
    // answers `cancelled`, or the result if it had started.
    const cancel = () => slot.worker.postMessage({ cancel: job.id } satisfies SpeechCancel);
    job.request.signal.addEventListener('abort', cancel, { once: true });
    const settled = () => job.request.signal.removeEventListener('abort', cancel);
    const { resolve, reject } = job;
    job.resolve = (result) => (settled(), resolve(result));
    job.reject = (error) => (settled(), reject(error));
  }

  return {
    name: 'builtin',
    size,
    get workers() {
      return slots.length;
    },
    get warming() {
      return slots.filter((s) => s.warming).length;
    },
    async start() {
      fill();
      // Workers lost and replaced while starting add to the list: wait until it stops growing.
      for (let seen = 0; seen < starting.length;) {
        seen = starting.length;
        await Promise.all(starting);
      }
      starting = [];
    },
    synthesize(request) {
      return new Promise<SynthesisResult>((resolve, reject) => {
        if (closed || request.signal.aborted) {
          reject(ABORTED);
          return;
        }
        startFailure = null; // a new job tries the workers again
        const job: PoolJob = {
          request,
          first: request.first ?? false,
          // A later clause waits from when the clause before it is done (S-10): never before.
          queuedAt: request.after ? Number.POSITIVE_INFINITY : performance.now(),
          aborted: () => request.signal.aborted,
          refuse: (reason) => reject(reason === 'busy' ? BUSY : ABORTED),
          resolve,
          reject,
        };
        const waitFromNow = () => (job.queuedAt = Math.min(job.queuedAt, performance.now()));
        request.after?.then(waitFromNow, waitFromNow);
        if (scheduler.add(job)) pump();
      });
    },
    encodeFile: encodeMp3File,
    async close() {
      closed = true;
      for (let job = scheduler.next(); job; job = scheduler.next()) job.refuse('aborted');
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
