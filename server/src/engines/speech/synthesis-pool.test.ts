import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSynthesisPool, SpeechBusyError, type SynthesisPool } from './synthesis-pool.ts';
import type { SynthesisRequest } from './types.ts';

/** The builtin synthesiser's worker pool (SPEC.md S-9, S-10, S-12), with real worker threads. */
const pools: SynthesisPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const clause = (text: string, signal = new AbortController().signal): SynthesisRequest => ({
  text,
  language: 'es',
  voice: { voice: 'es+f3' },
  signal,
  first: true,
});

describe('the speech worker pool', () => {
  // Two workers, started once: warming them is the slow part (seconds on a loaded machine).
  const pool = createSynthesisPool({ size: 2, idleWarmUpClauses: 0 });
  afterAll(() => pool.close());

  it('S-12 start() resolves once every worker is warm; a clause is then voiced, MP3 with timings', async () => {
    expect(pool.workers).toBe(0); // nothing runs until asked
    await pool.start();
    expect(pool.workers).toBe(2);
    await pool.start(); // idempotent: no more workers
    expect(pool.workers).toBe(2);
    const result = await pool.synthesize(clause('Hola, ¿qué tal?'));
    expect(result.mimeType).toBe('audio/mpeg');
    expect(result.durationMs).toBeGreaterThan(300);
    expect(result.words.map((w) => w.text)).toEqual(['Hola', 'qué', 'tal']);
  }, 120_000);

  it('S-11 the same clause comes out the same from either worker', async () => {
    await pool.start();
    // Two at once: one on each worker.
    const [a, b] = await Promise.all([
      pool.synthesize(clause('Me alegra verte.')),
      pool.synthesize(clause('Me alegra verte.')),
    ]);
    expect(b.durationMs).toBe(a.durationMs);
    expect(b.visemes).toEqual(a.visemes);
    expect(Buffer.from(b.audio).equals(Buffer.from(a.audio))).toBe(true);
  }, 120_000);

  it('S-10 a clause aborted while it waits is never voiced; a full queue refuses with SpeechBusyError', async () => {
    const pool = createSynthesisPool({ size: 1, maxQueued: 1, idleWarmUpClauses: 0 });
    pools.push(pool);
    await pool.start();
    const running = pool.synthesize(clause('Esta frase ocupa al único trabajador un buen rato.'));
    // Handed to the worker while it voices the first (a first clause waits there, IN_FLIGHT).
    const stopHanded = new AbortController();
    const handed = pool.synthesize(clause('Esta espera allí su turno.', stopHanded.signal));
    const stop = new AbortController();
    const waiting = pool.synthesize(clause('Esta espera su turno.', stop.signal));
    const refused = pool.synthesize({ ...clause('Y esta no cabe.'), first: false });
    await expect(refused).rejects.toBeInstanceOf(SpeechBusyError);
    stop.abort();
    stopHanded.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    await expect(handed).rejects.toMatchObject({ name: 'AbortError' });
    expect((await running).durationMs).toBeGreaterThan(0);
    // The worker took the handed clause back unvoiced: it is free for the next at once.
    expect((await pool.synthesize(clause('Ya está.'))).durationMs).toBeGreaterThan(0);
  }, 120_000);

  it('S-10 a worker voicing a clause is handed the next first clause: it starts without waiting for the event loop', async () => {
    const pool = createSynthesisPool({ size: 1, idleWarmUpClauses: 0 });
    pools.push(pool);
    await pool.start();
    const done: string[] = [];
    const voiced = (name: string, promise: Promise<unknown>) => promise.then(() => void done.push(name));
    const both = Promise.all([
      voiced('a', pool.synthesize(clause('Primera frase de una respuesta.'))),
      voiced('b', pool.synthesize(clause('Primera frase de otra respuesta.'))),
    ]);
    // The event loop is held (as by a burst of sends) for longer than both clauses take: the
    // second reaches the worker only if it was handed over before.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual(['a', 'b']);
    await both;
  }, 120_000);

  it("S-10 a later clause's wait counts from when the clause before it is done, not from when it was cut", async () => {
    // Hardly any wait allowed (1 ms; a clause takes tens): a clause that waits behind another is
    // refused — unless what it waited for was the clause before it in its reply.
    const pool = createSynthesisPool({ size: 1, maxWaitMs: 1, idleWarmUpClauses: 0 });
    pools.push(pool);
    await pool.start();
    const before = pool.synthesize(clause('Esta frase ocupa al único trabajador un buen rato.'));
    const next = pool.synthesize({
      ...clause('La siguiente espera a la anterior.'),
      first: false,
      after: before,
    });
    const other = pool
      .synthesize({ ...clause('Esta otra no espera a nadie.'), first: false })
      .catch((error: unknown) => error);
    expect((await before).durationMs).toBeGreaterThan(0);
    expect((await next).durationMs).toBeGreaterThan(0);
    expect(await other).toBeInstanceOf(SpeechBusyError);
  }, 120_000);

  it('S-12 once ready a worker warms on while idle, serving a job first; with 0 it does not', async () => {
    const pool = createSynthesisPool({ size: 1, idleWarmUpClauses: 30 });
    const cold = createSynthesisPool({ size: 1, idleWarmUpClauses: 0 });
    pools.push(pool, cold);
    await Promise.all([pool.start(), cold.start()]);
    expect(pool.warming).toBe(1);
    expect(cold.warming).toBe(0);
    // A clause asked for during the warm-up is voiced before the warm-up ends (30 clauses take
    // seconds; this one waits at most for the warm-up clause under way).
    const result = await pool.synthesize(clause('Hola, ¿qué tal?'));
    expect(result.words.map((w) => w.text)).toEqual(['Hola', 'qué', 'tal']);
    expect(pool.warming).toBe(1);
    await expect.poll(() => pool.warming, { timeout: 100_000, interval: 100 }).toBe(0);
    // Warm or not, the same clause comes out the same (S-11).
    const again = await cold.synthesize(clause('Hola, ¿qué tal?'));
    expect(Buffer.from(again.audio).equals(Buffer.from(result.audio))).toBe(true);
  }, 120_000);

  it('S-9 on Linux the workers run below the main thread: SPEECH_WORKER_NICE above it, the main thread unchanged', async () => {
    const niceOf = (task: string) => {
      const stat = readFileSync(`/proc/${process.pid}/task/${task}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: state is the 3rd, nice the 19th.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const main = niceOf(String(process.pid));
    const atNice = (n: number) =>
      readdirSync(`/proc/${process.pid}/task`).filter((t) => niceOf(t) === Math.min(19, main + n));
    const before = atNice(7).length;
    const pool = createSynthesisPool({ size: 2, idleWarmUpClauses: 0, nice: 7 });
    pools.push(pool);
    await pool.start();
    expect(atNice(7).length - before).toBe(2);
    expect(niceOf(String(process.pid))).toBe(main);
    const same = createSynthesisPool({ size: 1, idleWarmUpClauses: 0, nice: 0 });
    pools.push(same);
    await same.start();
    expect(atNice(7).length - before).toBe(2);
  }, 120_000);

  it('S-12 a worker that cannot start fails the clauses waiting for it and is not restarted in a loop', async () => {
    // A worker script that does not exist: what a server built without its speech-worker bundle does.
    const pool = createSynthesisPool({
      size: 2,
      entry: { source: new URL('./no-such-worker.ts', import.meta.url), bundle: 'no-such-worker.js' },
    });
    pools.push(pool);
    await pool.start(); // resolves: a failed start does not hold the server back
    await expect(pool.synthesize(clause('Hola.'))).rejects.not.toBeInstanceOf(SpeechBusyError);
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.workers).toBe(0);
    // The next clause tries again (and fails the same way here).
    await expect(pool.synthesize(clause('Hola otra vez.'))).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.workers).toBe(0);
  }, 120_000);
});
