import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LibraryHandle, load } from 'koffi';
import { AppError, isAppError } from '../../lib/app-error.ts';
import { POCKETSPHINX_WORKER_SOURCE } from './pocketsphinx-worker.ts';
import type { Transcriber, TranscriptionRequest } from './types.ts';

/**
 * English voice notes on this machine (SPEC.md V-3): Debian's `pocketsphinx` (libpocketsphinx3,
 * 0.8+5prealpha) with the `pocketsphinx-en-us` model, called through koffi — no build step — on
 * a worker thread, so a minute of audio (~20 s of decoding on a busy core) never blocks the
 * event loop. Measured on Debian's `pocketsphinx-testdata` LibriVox clips: ~31 % word error
 * rate, real-time factor ~0.15–0.3 (pocketsphinx.test.ts prints both).
 *
 * English only: a Spanish note (or one of unknown language with a browser transcript) goes to
 * `fallback` (the browser's hint), which never invents text. Nothing recognised is
 * `voice_note_failed` unless the browser offered a transcript — and so is a guess: pocketsphinx
 * always finds *some* words, so a hypothesis of only fillers ("ah") or whose words average a
 * posterior below MIN_MEAN_POSTERIOR counts as nothing (a recorded tone scored "ah" at 0.05; the
 * LibriVox clips average 0.55–0.7, espeak's robotic voice ~0.26).
 */

const require = createRequire(import.meta.url);

/** Sonames Debian (and upstream 0.8/5prealpha builds) ship; the first that loads is used. */
export const POCKETSPHINX_LIBRARIES = ['libpocketsphinx.so.3', 'libpocketsphinx.so'] as const;
export const POCKETSPHINX_DEFAULT_MODEL = '/usr/share/pocketsphinx/model/en-us';
/** libsphinxbase (logmath_exp, for the word posteriors); libpocketsphinx3 depends on it. */
export const SPHINXBASE_LIBRARIES = ['libsphinxbase.so.3', 'libsphinxbase.so'] as const;
const SAMPLE_RATE = 16_000;

/** Below this mean word posterior, a hypothesis is a guess, not a transcript. */
export const MIN_MEAN_POSTERIOR = 0.2;
/** Hesitations the en-us dictionary knows: a hypothesis of only these says nothing. */
const FILLERS = new Set(['ah', 'uh', 'um', 'uhm', 'oh', 'hmm', 'hm', 'mm', 'er', 'huh']);

export interface RecognisedWord {
  /** As the decoder names it: `<s>`, `<sil>`, `[NOISE]`, `been(2)` (an alternative pronunciation). */
  word: string;
  /** Posterior probability, 0…1. */
  p: number;
}

/** Whether the decoder's words are a transcript worth storing (see the file comment). */
export function isReliable(words: RecognisedWord[]): boolean {
  const spoken = words
    .map((w) => ({ word: w.word.replace(/\(\d+\)$/, '').toLowerCase(), p: w.p }))
    .filter((w) => w.word && !/^(<.*>|\[.*\]|\+\+.*\+\+)$/.test(w.word));
  if (!spoken.some((w) => !FILLERS.has(w.word))) return false;
  const mean = spoken.reduce((sum, w) => sum + w.p, 0) / spoken.length;
  return mean >= MIN_MEAN_POSTERIOR;
}

export interface PocketsphinxInstall {
  /** The sonames koffi loaded: libpocketsphinx and libsphinxbase. */
  library: string;
  base: string;
  /** Acoustic model folder, language model, pronunciation dictionary. */
  hmm: string;
  lm: string;
  dict: string;
}

export type PocketsphinxDetection =
  { ok: true; install: PocketsphinxInstall } | { ok: false; reason: string };

/**
 * Whether pocketsphinx can run here: the en-us model files exist under `modelDir` and koffi
 * loads a libpocketsphinx exposing the 5prealpha API (`cmd_ln_parse_r`, `ps_args`, `ps_init`).
 * A 5.x library (`ps_config_init`, no `cmd_ln_parse_r`) is reported, not guessed at.
 */
export function detectPocketsphinx(modelDir: string = POCKETSPHINX_DEFAULT_MODEL): PocketsphinxDetection {
  const files = {
    hmm: join(modelDir, 'en-us'),
    lm: join(modelDir, 'en-us.lm.bin'),
    dict: join(modelDir, 'cmudict-en-us.dict'),
  };
  const missing = [join(files.hmm, 'mdef'), files.lm, files.dict].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `no en-us model (missing ${missing.join(', ')}; apt-get install pocketsphinx-en-us)`,
    };
  }
  let koffi: { load: typeof load };
  try {
    koffi = require('koffi') as { load: typeof load };
  } catch (error) {
    return { ok: false, reason: `koffi does not load: ${(error as Error).message}` };
  }
  let base: string | null = null;
  const failures: string[] = [];
  for (const name of SPHINXBASE_LIBRARIES) {
    try {
      koffi.load(name).func('double logmath_exp(void *lmath, int32_t p)');
      base = name;
      break;
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  if (!base) return { ok: false, reason: `libsphinxbase does not load (${failures.join('; ')})` };
  failures.length = 0;
  for (const library of POCKETSPHINX_LIBRARIES) {
    let lib: LibraryHandle;
    try {
      lib = koffi.load(library);
    } catch (error) {
      failures.push(`${library}: ${(error as Error).message}`);
      continue;
    }
    try {
      lib.func('void *ps_args()');
      lib.func('void *cmd_ln_parse_r(void *a, void *b, int c, const char **d, int e)');
      lib.func('void *ps_init(void *config)');
      lib.func('void *ps_seg_iter(void *ps)');
      return { ok: true, install: { library, base, ...files } };
    } catch {
      failures.push(
        `${library}: not the 0.8/5prealpha API (cmd_ln_parse_r missing; pocketsphinx 5.x is not supported)`,
      );
    }
  }
  return {
    ok: false,
    reason: `libpocketsphinx does not load (${failures.join('; ')}; apt-get install pocketsphinx)`,
  };
}

/** Mono −1…1 samples at any rate to 16 kHz signed 16-bit (linear interpolation). */
export function toInt16At16k(pcm: Float32Array, sampleRate: number): Int16Array {
  const length =
    sampleRate === SAMPLE_RATE ? pcm.length : Math.round((pcm.length * SAMPLE_RATE) / sampleRate);
  const out = new Int16Array(length);
  const step = sampleRate / SAMPLE_RATE;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const j = Math.floor(x);
    const a = pcm[j] ?? 0;
    const b = pcm[j + 1] ?? a;
    const v = a + (b - a) * (x - j);
    out[i] = Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
  }
  return out;
}

export interface Decoded {
  /** The best hypothesis, fillers and silences left out. */
  text: string;
  /** Every segment of it, with its posterior. */
  words: RecognisedWord[];
  decodeMs: number;
}

interface Pending {
  resolve: (result: Decoded) => void;
  reject: (error: Error) => void;
}

type WorkerMessage =
  { type: 'ready'; initMs: number } | ({ id: number } & Decoded) | { id: number; error: string };

export interface PocketsphinxTranscriber extends Transcriber {
  /** Decodes 16 kHz Int16 samples on the worker (tests and benchmarks call it directly). */
  decode(pcm: Int16Array, signal?: AbortSignal): Promise<Decoded>;
  /** Stops the worker; a later note starts a new one. */
  close(): Promise<void>;
}

export function createPocketsphinxTranscriber(options: {
  install: PocketsphinxInstall;
  /** Spanish notes, and notes of unknown language with a browser transcript, go here. */
  fallback: Transcriber;
}): PocketsphinxTranscriber {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  function start(): Worker {
    if (worker) return worker;
    const w = new Worker(POCKETSPHINX_WORKER_SOURCE, {
      eval: true,
      workerData: { koffi: require.resolve('koffi'), ...options.install },
    });
    // Idle, it keeps no process alive; a note in flight holds a pending promise, not the loop.
    w.unref();
    w.on('message', (message: WorkerMessage) => {
      if ('type' in message) return;
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if ('error' in message) p.reject(new Error(message.error));
      else p.resolve({ text: message.text, words: message.words, decodeMs: message.decodeMs });
    });
    w.on('error', (error) => {
      if (worker === w) worker = null;
      failAll(error);
    });
    w.on('exit', (code) => {
      if (worker === w) worker = null;
      failAll(new Error(`the pocketsphinx worker exited (${code})`));
    });
    worker = w;
    return w;
  }

  function decode(pcm: Int16Array, signal?: AbortSignal): Promise<Decoded> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const id = nextId++;
      const onAbort = () => {
        pending.delete(id);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      const copy = pcm.slice();
      start().postMessage({ id, pcm: copy.buffer }, [copy.buffer]);
    });
  }

  async function viaFallback(request: TranscriptionRequest, why: string) {
    try {
      return await options.fallback.transcribe(request);
    } catch (error) {
      if (isAppError(error) && error.code === 'transcription_not_configured') {
        throw new AppError('transcription_not_configured', {
          detail: `${why}, and the browser offered no transcript`,
        });
      }
      throw error;
    }
  }

  return {
    name: 'pocketsphinx',
    decode,
    async transcribe(request) {
      const hint = request.hint?.trim() ?? '';
      if (request.language === 'es') {
        return viaFallback(
          request,
          'no Spanish speech model is installed (pocketsphinx here is English-only)',
        );
      }
      if (request.language === undefined && hint) return viaFallback(request, 'unknown language');
      let text: string;
      try {
        const decoded = await decode(toInt16At16k(request.pcm, request.sampleRate), request.signal);
        text = isReliable(decoded.words) ? decoded.text.trim() : '';
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        throw new AppError('voice_note_failed', { detail: `pocketsphinx: ${(error as Error).message}` });
      }
      if (text) return { text, engine: 'pocketsphinx' };
      if (hint) return viaFallback(request, 'pocketsphinx recognised nothing');
      throw new AppError('voice_note_failed', {
        detail: 'pocketsphinx recognised no English speech in the note (or only a low-confidence guess)',
      });
    },
    async close() {
      const w = worker;
      worker = null;
      failAll(new Error('the pocketsphinx transcriber was closed'));
      if (w) await w.terminate();
    },
  };
}
