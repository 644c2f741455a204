/**
 * How long a speech worker takes to warm (issue 14; SPEC.md S-12; part of `npm run bench`;
 * alone: `tsx tests/bench/warm-up-bench.ts`).
 *
 * espeak-ng ships as JavaScript (emscripten's wasm2js), and V8 optimises each of its functions in
 * each thread only once it has run enough, the largest last. A child process (with `--trace-opt`)
 * speaks the warm-up corpus in a worker's order, pass after pass, as a fresh worker does, and
 * prints per pass: the thread's CPU per second of audio against the last passes' (the worker
 * warm), and what V8 compiled with TurboFan meanwhile (on its own threads: what the first replies
 * pay for if the warm-up stops before). Then where the default SPEECH_WARM_UP_CLAUSES falls: what
 * was still compiled after it. Figures, no thresholds. Environment: BENCH_WARM_UP_PASSES (12),
 * BENCH_QUICK=1 (3).
 */
import { spawn } from 'node:child_process';
import { DEFAULT_SPEECH_WARM_UP_CLAUSES } from '../../server/src/engines/speech/synthesis-pool.ts';
import { warmUpOrder } from '../../server/src/engines/speech/corpus.ts';
import { fmt, machine, median, printTable, QUICK, ratio, writeResult } from './support/report.ts';

const PASSES = Number(process.env.BENCH_WARM_UP_PASSES) || (QUICK ? 3 : 12);
const PER_PASS = warmUpOrder().length;
/** A TurboFan compile this long (ms, its concurrent phase) is one of espeak's large functions. */
const LARGE_COMPILE_MS = 10;

interface Clause {
  cpuUs: number;
  audioMs: number;
}
interface Compile {
  /** Clauses spoken when it completed. */
  after: number;
  name: string;
  ms: number;
}

const child = spawn(
  process.execPath,
  [
    '--trace-opt',
    '--import',
    'tsx',
    new URL('./support/warm-up-child.ts', import.meta.url).pathname,
    String(PASSES * PER_PASS),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const clauses: Clause[] = [];
const compiles: Compile[] = [];
let pending = '';
child.stdout.setEncoding('utf8').on('data', (data: string) => {
  const lines = (pending + data).split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const spoken = /^@clause (\d+) (\d+) (\d+)$/.exec(line);
    if (spoken) clauses.push({ cpuUs: Number(spoken[2]), audioMs: Number(spoken[3]) });
    // [completed compiling 0x… <JSFunction Ob (sfi = 0x…)> (target TURBOFAN) - took 0.019, 74.638, 0.232 ms]
    const compiled =
      /^\[completed compiling .*<JSFunction (?:(\S+) )?\(sfi.*\(target TURBOFAN\).* took [\d.]+, ([\d.]+), [\d.]+ ms/.exec(
        line,
      );
    if (compiled)
      compiles.push({ after: clauses.length, name: compiled[1] || '(anonymous)', ms: Number(compiled[2]) });
  }
});
const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
if (code !== 0 || clauses.length !== PASSES * PER_PASS)
  throw new Error(`the warm-up child exited with ${code}`);

const passes = Array.from({ length: PASSES }, (_, p) => {
  const mine = clauses.slice(p * PER_PASS, (p + 1) * PER_PASS);
  const audioS = mine.reduce((s, c) => s + c.audioMs, 0) / 1000;
  const compiled = compiles.filter((c) => c.after > p * PER_PASS && c.after <= (p + 1) * PER_PASS);
  return {
    clauses: `${p * PER_PASS + 1}–${(p + 1) * PER_PASS}`,
    cpuMsPerAudioS: mine.reduce((s, c) => s + c.cpuUs, 0) / 1000 / audioS,
    compiles: compiled.length,
    compileMs: compiled.reduce((s, c) => s + c.ms, 0),
    large: compiled.filter((c) => c.ms >= LARGE_COMPILE_MS).map((c) => `${c.name} (${c.after})`),
  };
});
/** The worker warm: the last passes, or the last one of a quick run. */
const warm = median(passes.slice(-Math.min(3, Math.max(1, PASSES - 6))).map((p) => p.cpuMsPerAudioS));
console.info(
  `warm-up: ${PASSES} passes over the corpus (${PER_PASS} clauses each, es and en in turn); the worker warm ` +
    `(the last passes): ${fmt(warm, 2)} ms of its thread's CPU per second of audio`,
);
printTable(
  [
    'clauses',
    'CPU/s audio',
    'of warm',
    'TurboFan compiles',
    'their ms',
    `compiles ≥ ${LARGE_COMPILE_MS} ms (at clause)`,
  ],
  passes.map((p) => [
    p.clauses,
    `${fmt(p.cpuMsPerAudioS, 2)} ms`,
    `×${fmt(ratio(p.cpuMsPerAudioS, warm), 2)}`,
    String(p.compiles),
    fmt(p.compileMs),
    p.large.length > 6
      ? `${p.large.slice(0, 6).join(', ')} and ${p.large.length - 6} more`
      : p.large.join(', '),
  ]),
);
// The worker speaks two clauses of its own before the corpus (speech-worker.ts's WARM_UP).
const warmedAt = DEFAULT_SPEECH_WARM_UP_CLAUSES + 2;
const later = compiles.filter((c) => c.after > warmedAt);
if (clauses.length <= warmedAt)
  console.info(`the default warm-up (~${warmedAt} clauses) is past this run's ${clauses.length} clauses`);
else
  console.info(
    `after the default warm-up (SPEECH_WARM_UP_CLAUSES ${DEFAULT_SPEECH_WARM_UP_CLAUSES}, ~${warmedAt} clauses): ` +
      `${later.length} TurboFan compiles, ${fmt(later.reduce((s, c) => s + c.ms, 0))} ms, still to come; ` +
      `${later.filter((c) => c.ms >= LARGE_COMPILE_MS).length} of them ≥ ${LARGE_COMPILE_MS} ms`,
  );
writeResult('warm-up-latest', {
  machine: machine(),
  passes,
  warmCpuMsPerAudioS: warm,
  compiles,
  defaultWarmUpClauses: DEFAULT_SPEECH_WARM_UP_CLAUSES,
});
