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

/**
 * Warm before the pool counts this worker as ready: espeak loaded (its wasm compiled, its data
 * read) and a clause in each language spoken and encoded, so a reply's first clause does not pay
 * for the encoder's first, unoptimised runs. A failure here is the first job's to report.
 */
const WARM_UP: { text: string; language: Language; voice: string }[] = [
  { text: 'Hola, ¿qué tal estás hoy?', language: 'es', voice: 'es+f3' },
  { text: 'Hello, how are you today?', language: 'en', voice: 'en-us+f3' },
];
void (async () => {
  for (const { text, language, voice } of WARM_UP)
    await synthesizer.synthesize({ text, language, voice: { voice }, signal: never });
})()
  .catch(() => undefined)
  .then(() => parentPort?.postMessage({ ready: true } satisfies SpeechJobResult));

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
