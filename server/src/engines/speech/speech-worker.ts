import type { Language } from '@alma/protocol';
import { parentPort } from 'node:worker_threads';
import { createBuiltinSynthesizer } from './builtin.ts';
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
export type SpeechJobResult =
  | { ready: true }
  | { id: number; ok: true; result: SynthesisResult }
  | { id: number; ok: false; message: string };

const synthesizer = createBuiltinSynthesizer();
const never = new AbortController().signal;

/** espeak's wasm compiles on first use: done (without speaking) before the pool counts this worker as ready. */
void synthesizer
  .listVoices()
  .catch(() => undefined)
  .then(() => parentPort?.postMessage({ ready: true }));

parentPort?.on('message', (job: SpeechJob) => {
  synthesizer.synthesize({ text: job.text, language: job.language, voice: job.voice, signal: never }).then(
    (result) => {
      const answer: SpeechJobResult = { id: job.id, ok: true, result };
      parentPort?.postMessage(answer, [result.audio.buffer, result.pcm.buffer] as ArrayBuffer[]);
    },
    (error: unknown) => {
      const answer: SpeechJobResult = { id: job.id, ok: false, message: String(error) };
      parentPort?.postMessage(answer);
    },
  );
});
