import type { Language } from '@alma/protocol';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../lib/worker-thread.ts';
import { createBuiltinSynthesizer } from './builtin.ts';
import { WARM_UP_VOICES, warmUpOrder } from './corpus.ts';
import type { SynthesisResult, VoiceParams } from './types.ts';

/**
 * A speech worker thread (synthesis-pool.ts): espeak-ng and the MP3 encoder off the event loop.
 * Says `ready` once warm, then runs one job at a time; the result's buffers are transferred, not copied.
 */
export interface SpeechJob {
  id: number;
  text: string;
  language: Language;
  voice: Omit<VoiceParams, 'sample'>;
}
/** Take back a job not started yet (its clause was aborted while it waited here). */
export interface SpeechCancel {
  cancel: number;
}
export type SpeechJobResult =
  | { ready: true }
  /** The idle warm-up is over: this many clauses were spoken for it. */
  | { warmed: number }
  | { id: number; ok: true; result: SynthesisResult }
  | { id: number; ok: false; message: string }
  /** Cancelled before it started: never voiced. */
  | { id: number; ok: false; cancelled: true };
export interface SpeechWorkerData {
  /** Clauses to speak while idle once ready (SPEECH_WARM_UP_CLAUSES; SPEC.md S-12). */
  idleWarmUpClauses: number;
  /** How much nicer than the process this thread runs, 0–19 (SPEECH_WORKER_NICE; SPEC.md S-9). */
  nice: number;
}
const { idleWarmUpClauses, nice } = (workerData ?? { idleWarmUpClauses: 0, nice: 0 }) as SpeechWorkerData;

// The event loop before speech (S-9): when the cores are all taken, the scheduler gives the text,
// the acks and the pings their turn first; speech still has every core nobody else wants.
lowerThreadPriority(nice);

const synthesizer = createBuiltinSynthesizer();
const never = new AbortController().signal;
const speak = (text: string, language: Language) =>
  synthesizer.synthesize({ text, language, voice: { voice: WARM_UP_VOICES[language] }, signal: never });

/**
 * Warm before the pool counts this worker as ready: espeak loaded (its wasm compiled, its data
 * read) and a clause in each language spoken and encoded, so a reply's first clause does not pay
 * for the encoder's first, unoptimised runs. A failure here is the first job's to report.
 */
const WARM_UP: { text: string; language: Language }[] = [
  { text: 'Hola, ¿qué tal estás hoy?', language: 'es' },
  { text: 'Hello, how are you today?', language: 'en' },
];

/** Resolved when the worker has no job left: the warm-up goes on. */
let idle: (() => void) | null = null;

/**
 * Then warm on while idle (SPEC.md S-12). espeak-ng is JavaScript (emscripten's wasm2js) and V8
 * optimises its large functions only once they have run a while, in each thread on its own:
 * measured, a worker's first ~100 clauses cost up to twice what later ones do, in the worker and
 * in V8's compiler threads, and the largest functions are optimised only after ~115–445 clauses
 * (tests/bench/warm-up-bench.ts). The corpus' clauses, both languages in turn, are spoken one at a
 * time, each only while no job is in hand: a job waits at most for the warm-up clause under way.
 */
async function warmWhileIdle(clauses: number): Promise<number> {
  const corpus = warmUpOrder();
  let spoken = 0;
  while (spoken < clauses) {
    // A job's message is taken in between two warm-up clauses (the event loop's poll phase).
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (voicing || waiting.length > 0) {
      await new Promise<void>((resolve) => (idle = resolve));
      continue;
    }
    const { text, language } = corpus[spoken % corpus.length]!;
    await speak(text, language);
    spoken++;
  }
  return spoken;
}

void (async () => {
  for (const { text, language } of WARM_UP) await speak(text, language);
})()
  .catch(() => undefined)
  .then(async () => {
    parentPort?.postMessage({ ready: true } satisfies SpeechJobResult);
    const warmed = await warmWhileIdle(idleWarmUpClauses);
    parentPort?.postMessage({ warmed } satisfies SpeechJobResult);
  })
  .catch(() => undefined);

/**
 * Jobs are voiced one at a time, in the order they came; the pool may hand over the next while
 * one is voiced (synthesis-pool.ts). Each starts a turn after the one before ended, so a cancel
 * that arrived meanwhile is read first.
 */
const waiting: SpeechJob[] = [];
let voicing = false;

function answer(message: SpeechJobResult, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

function voiceNext(): void {
  const job = waiting.shift();
  if (!job) {
    voicing = false;
    idle?.();
    idle = null;
    return;
  }
  voicing = true;
  const next = () => setImmediate(voiceNext);
  synthesizer.synthesize({ text: job.text, language: job.language, voice: job.voice, signal: never }).then(
    (result) => {
      answer({ id: job.id, ok: true, result }, [result.audio.buffer, result.pcm.buffer] as ArrayBuffer[]);
      next();
    },
    (error: unknown) => {
      answer({ id: job.id, ok: false, message: String(error) });
      next();
    },
  );
}

parentPort?.on('message', (message: SpeechJob | SpeechCancel) => {
  if ('cancel' in message) {
    const at = waiting.findIndex((job) => job.id === message.cancel);
    if (at >= 0) {
      waiting.splice(at, 1);
      answer({ id: message.cancel, ok: false, cancelled: true });
    }
    return;
  }
  waiting.push(message);
  if (!voicing) {
    voicing = true;
    setImmediate(voiceNext);
  }
});
