/**
 * warm-up-bench.ts's child, run with `--trace-opt`: a fresh builtin synthesiser speaks the warm-up
 * corpus in a speech worker's order (S-12), and after each clause writes
 * `@clause <n> <thread CPU µs> <audio ms>` to stdout, unbuffered, between V8's own trace lines.
 */
import { readFileSync, writeSync } from 'node:fs';
import { createBuiltinSynthesizer } from '../../../server/src/engines/speech/builtin.ts';
import { WARM_UP_VOICES, warmUpOrder } from '../../../server/src/engines/speech/corpus.ts';

const clauses = Number(process.argv[2]);
/** This thread's CPU (ns), not the process's: V8's compiler threads are counted apart. */
const threadCpuNs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ', 1)[0]);

const synthesizer = createBuiltinSynthesizer();
const signal = new AbortController().signal;
const corpus = warmUpOrder();
for (let n = 1; n <= clauses; n++) {
  const { text, language } = corpus[(n - 1) % corpus.length]!;
  const started = threadCpuNs();
  const { durationMs } = await synthesizer.synthesize({
    text,
    language,
    voice: { voice: WARM_UP_VOICES[language] },
    signal,
  });
  writeSync(1, `@clause ${n} ${Math.round((threadCpuNs() - started) / 1000)} ${durationMs}\n`);
  // As the worker does between clauses: a turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
}
