/**
 * Direct speech in a process of its own (`startDirectProcess`): espeak-ng and the MP3 encoder
 * called directly (direct-speech.ts), and Alma's builtin synthesiser alone, measured here rather
 * than in the load generator. Measured in the generator, the speaking right before each round
 * left its own work (V8's collection and compilation of espeak's JavaScript) to run through the
 * round beside 200 clients, and their timestamps took it: lateness p99 at 200 sessions read
 * 131–174 ms with it and 59–83 ms without it, the server unchanged.
 */
import type { Language } from '@alma/protocol';
import { createBuiltinSynthesizer } from '../../../server/src/engines/speech/builtin.ts';
import { directSpeech } from './direct-speech.ts';

export type DirectRequest =
  /** `runs` passes over `texts`: each clause's CPU, µs, per pass. */
  | { id: number; type: 'direct'; texts: string[]; runs: number }
  /** The same through Alma's builtin synthesiser (what a speech worker runs per clause). */
  | { id: number; type: 'synthesizer'; texts: string[]; runs: number; language: Language }
  | { id: number; type: 'close' };
export interface DirectAnswer {
  id: number;
  cpuUs: number[][];
}

const voice = process.env.BENCH_DIRECT_VOICE ?? 'es+f3';
const direct = await directSpeech(voice);
const synthesizer = createBuiltinSynthesizer();
const cpuUs = async (work: () => unknown) => {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
};

process.on('message', (request: DirectRequest) => {
  if (request.type === 'close') process.exit(0);
  void (async () => {
    const passes: number[][] = [];
    for (let run = 0; run < request.runs; run++) {
      const pass: number[] = [];
      for (const text of request.texts) {
        pass.push(
          request.type === 'direct'
            ? direct.speak(text).cpuUs
            : await cpuUs(() =>
                synthesizer.synthesize({
                  text,
                  language: request.language,
                  voice: { voice },
                  signal: new AbortController().signal,
                }),
              ),
        );
      }
      passes.push(pass);
    }
    process.send?.({ id: request.id, cpuUs: passes } satisfies DirectAnswer);
  })();
});
// The bench gone (killed, or its output piped into `head`): nothing more to measure.
process.once('disconnect', () => process.exit(0));
process.send?.({ ready: true });
