import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../lib/worker-thread.ts';
import { encodeMp3File } from './mp3.ts';
import { createSpeechScheduler, type ScheduledJob } from './speech-scheduler.ts';
import type { SpeechJob, SpeechJobResult } from './speech-worker.ts';
import type { SpeechSynthesizer, SynthesisRequest, SynthesisResult } from './types.ts';

/**
 * The builtin synthesiser run in a pool of worker threads (issue 14; SPEC.md S-9, S-10): espeak-ng
 * and the MP3 encoder never run on the event loop, so a reply's text, acks and pings never wait
 * behind audio. Jobs are served by speech-scheduler.ts (first clauses first, bounded); a refused
 * job rejects with SpeechBusyError and its reply goes on as text.
 */
export class SpeechBusyError extends Error {
  constructor() {
    super('speech is busy: the clause could not be voiced in time');
    this.name = 'SpeechBusyError';
  }
}

export interface SynthesisPoolOptions {
  /** Worker threads; default: the machine's cores (SPEECH_WORKERS). */
  size?: number;
  /** Jobs waiting at most (SPEECH_QUEUE_MAX). */
  maxQueued?: number;
  /** Longest a job may wait for a worker before its reply goes on as text (SPEECH_MAX_WAIT_MS). */
  maxWaitMs?: number;
}

export const DEFAULT_SPEECH_QUEUE_MAX = 512;
export const DEFAULT_SPEECH_MAX_WAIT_MS = 8000;

interface PoolJob extends ScheduledJob {
  request: SynthesisRequest;
  resolve(result: SynthesisResult): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: (PoolJob & { id: number }) | null;
}

export function createSynthesisPool(
  options: SynthesisPoolOptions = {},
): SpeechSynthesizer & { close(): Promise<void>; readonly size: number } {
  const size = Math.max(1, options.size ?? availableParallelism());
  const scheduler = createSpeechScheduler<PoolJob>({
    maxQueued: options.maxQueued ?? DEFAULT_SPEECH_QUEUE_MAX,
    maxWaitMs: options.maxWaitMs ?? DEFAULT_SPEECH_MAX_WAIT_MS,
  });
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const worker = startWorker(
      { source: new URL('./speech-worker.ts', import.meta.url), bundle: 'speech-worker.js' },
      null,
    );
    const slot: Slot = { worker, ready: false, job: null };
    worker.on('message', (answer: SpeechJobResult) => {
      if ('ready' in answer) {
        if (!slots.some((s) => s.ready)) scheduler.restartClocks(performance.now());
        slot.ready = true;
        pump();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== answer.id) return;
      slot.job = null;
      if (answer.ok) job.resolve(answer.result);
      else job.reject(new Error(answer.message));
      pump();
    });
    const lost = (error: unknown) => {
      const job = slot.job;
      slot.job = null;
      slots.splice(slots.indexOf(slot), 1);
      job?.reject(error instanceof Error ? error : new Error(`speech worker exited: ${String(error)}`));
      if (!closed) pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (slots.includes(slot)) lost(new Error(`speech worker exited with code ${code}`));
    });
    worker.unref();
    slots.push(slot);
    return slot;
  }

  function pump(): void {
    if (closed) return;
    for (;;) {
      while (slots.length < size) spawn();
      const idle = slots.find((s) => s.ready && s.job === null);
      if (!idle) return;
      const job = scheduler.next();
      if (!job) return;
      const id = nextId++;
      idle.job = Object.assign(job, { id });
      const { text, language, voice } = job.request;
      const message: SpeechJob = {
        id,
        text,
        language,
        voice: { voice: voice.voice, rate: voice.rate, pitch: voice.pitch },
      };
      idle.worker.postMessage(message);
    }
  }

  return {
    name: 'builtin',
    size,
    synthesize(request) {
      return new Promise<SynthesisResult>((resolve, reject) => {
        if (closed || request.signal.aborted) {
          reject(new DOMException('aborted', 'AbortError'));
          return;
        }
        const job: PoolJob = {
          request,
          first: request.first ?? false,
          queuedAt: performance.now(),
          aborted: () => request.signal.aborted,
          refuse: (reason) =>
            reject(reason === 'busy' ? new SpeechBusyError() : new DOMException('aborted', 'AbortError')),
          resolve,
          reject,
        };
        if (scheduler.add(job)) pump();
      });
    },
    encodeFile: encodeMp3File,
    async close() {
      closed = true;
      for (;;) {
        const job = scheduler.next();
        if (!job) break;
        job.refuse('aborted');
      }
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
