import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLog } from '../../test-support/chat-harness.ts';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { tone, wavOf } from '../../test-support/voice-samples.ts';
import {
  createLocalAnalysisQueue,
  createSampleAnalyser,
  type AnalysisJob,
  type AnalysisOutcome,
  type AnalysisQueue,
  type AnalysisQueueDeps,
} from './analysis-jobs.ts';
import { createRedisAnalysisQueue } from './analysis-jobs.redis.ts';
import { analyseVoice } from './analysis.ts';
import { decodeSample } from './sample-audio.ts';

/**
 * Voice analysis as jobs (SPEC.md VU-1, VU-3, M-9): on a worker thread inside a time limit, and
 * queued — in this process, or in Redis where any instance's workers take them and the jobs of a
 * dead instance are taken back. The queue tests give each instance a `run` they can watch (which
 * instance ran what, a job that hangs until stopped); the worker thread is tested on its own.
 */
vi.setConfig({ testTimeout: 60_000 });

describe('VU-3 the analysis runs on a worker thread', () => {
  const never = new AbortController().signal;
  const analyser = createSampleAnalyser({ ffmpeg: null, threads: 1 });
  afterAll(() => analyser.close());

  it('measures a sample as the in-process analysis does', async () => {
    const wav = wavOf(tone({ f0: 200, seconds: 2 }));
    const outcome = await analyser.analyse(wav, { timeoutMs: 30_000, signal: never });
    const decoded = await decodeSample(wav, null);
    expect(outcome).toEqual({
      ok: true,
      analysis: analyseVoice(decoded.pcm, decoded.sampleRate, decoded.durationMs),
    });
    if (outcome.ok) expect(outcome.analysis.pitchHz).toBeCloseTo(200, -1);
  });

  it('answers a damaged sample with its VU-2 code', async () => {
    const wav = wavOf(tone({ f0: 200, seconds: 2 }));
    const outcome = await analyser.analyse(wav.subarray(0, wav.length - 1001), {
      timeoutMs: 30_000,
      signal: never,
    });
    expect(outcome).toMatchObject({ ok: false, code: 'voice_file_damaged' });
  });

  it('stops the thread when the limit passes or the job is stopped: unavailable', async () => {
    const wav = wavOf(tone({ f0: 200, seconds: 60 }));
    const late = await analyser.analyse(wav, { timeoutMs: 1, signal: never });
    expect(late).toMatchObject({ ok: false, code: 'unavailable' });
    expect(late.ok ? '' : late.detail).toMatch(/longer than 1 ms/);
    const stop = new AbortController();
    const stopped = analyser.analyse(wav, { timeoutMs: 30_000, signal: stop.signal });
    stop.abort();
    expect(await stopped).toMatchObject({ ok: false, code: 'unavailable', detail: 'cancelled' });
  });
});

const ok = (id: string): AnalysisOutcome => ({ ok: true, analysis: { durationMs: id.length } as never });
const job = (id: string, userId = 'u1'): AnalysisJob => ({ id, userId, file: `${id}.wav` });

/** An instance's `run` and `discard`, recording what they were given; `hang` jobs wait for their stop. */
function watched(hang: (id: string) => boolean = () => false) {
  const ran: string[] = [];
  const aborted: string[] = [];
  const discarded: string[] = [];
  const deps: Pick<AnalysisQueueDeps, 'run' | 'discard'> = {
    run: async ({ id }, _limitMs, signal) => {
      ran.push(id);
      if (!hang(id)) return ok(id);
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      aborted.push(id);
      return { ok: false, code: 'unavailable', detail: 'cancelled' };
    },
    discard: async ({ id }) => void discarded.push(id),
  };
  return { deps, ran, aborted, discarded };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('M-9 analysis jobs in one process', () => {
  it('runs each job here and answers its outcome; the limit stops a job and answers unavailable', async () => {
    const w = watched((id) => id === 'slow');
    const queue = createLocalAnalysisQueue({ ...w.deps, instanceId: 'solo', workers: 1 });
    expect(await queue.analyse(job('a'), 10_000)).toEqual(ok('a'));
    expect(await queue.analyse(job('slow'), 300)).toMatchObject({ ok: false, code: 'unavailable' });
    expect(w.aborted).toEqual(['slow']);
    expect(await queue.state()).toEqual({
      instance: 'solo',
      workers: 1,
      running: [],
      waiting: 0,
      finished: 2,
    });
    await queue.close();
  });
});

describe('M-9 analysis jobs shared through Redis', () => {
  const LEASE_MS = 1000;
  let redis: TestRedis;
  let runs = 0;
  const opened: { queue: AnalysisQueue; connection: Redis }[] = [];
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterEach(async () => {
    for (const { queue, connection } of opened.splice(0)) {
      await queue.close();
      connection.disconnect();
    }
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** One instance's queue on its own connection; the instances of one test share `keyPrefix`. */
  async function instance(
    keyPrefix: string,
    instanceId: string,
    workers: number,
    w: Pick<AnalysisQueueDeps, 'run' | 'discard'>,
  ) {
    const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const queue = createRedisAnalysisQueue({
      ...w,
      redis: connection,
      leaseMs: LEASE_MS,
      log: silentLog,
      keyPrefix,
      instanceId,
      workers,
    });
    await queue.start();
    opened.push({ queue, connection });
    return queue;
  }

  it('M-9 a job queued on an instance without workers runs on another instance’s', async () => {
    const prefix = `vj-${++runs}:`;
    const onA = watched();
    const onB = watched();
    const a = await instance(prefix, 'A', 0, onA.deps);
    const b = await instance(prefix, 'B', 1, onB.deps);
    const outcomes = await Promise.all([a.analyse(job('v1'), 10_000), a.analyse(job('v2', 'u2'), 10_000)]);
    expect(outcomes).toEqual([ok('v1'), ok('v2')]);
    expect(onA.ran).toEqual([]);
    expect(onB.ran.sort()).toEqual(['v1', 'v2']);
    expect(await a.state()).toMatchObject({ instance: 'A', workers: 0, finished: 0, waiting: 0 });
    expect(await b.state()).toMatchObject({ instance: 'B', workers: 1, finished: 2, running: [] });
  });

  it('M-9 a job whose instance died goes back to the queue; another instance runs it and the request gets it', async () => {
    const prefix = `vj-${++runs}:`;
    const dying = watched(() => true);
    const a = await instance(prefix, 'A', 0, watched().deps);
    const c = await instance(prefix, 'C', 1, dying.deps);
    const answer = a.analyse(job('v3'), 30_000);
    await until(async () => (await c.state()).running.includes('v3'), 'C to run the job');
    // As a kill -9 leaves it in Redis: the job claimed by C, whose lease is no longer renewed.
    await c.close();
    expect(dying.aborted).toEqual(['v3']);
    const onB = watched();
    await instance(prefix, 'B', 1, onB.deps);
    expect(await answer).toEqual(ok('v3'));
    expect(onB.ran).toEqual(['v3']);
  });

  it('M-9 a job whose waiting instance died is dropped with its sample, wherever it waits or runs', async () => {
    const prefix = `vj-${++runs}:`;
    const owner = await instance(prefix, 'A', 0, watched().deps);
    const answer = owner.analyse(job('v4'), 30_000);
    // No instance runs analyses yet: the job waits in the shared queue.
    await until(async () => (await owner.state()).waiting === 1, 'the job to wait');
    const runner = watched(() => true);
    await instance(prefix, 'B', 1, runner.deps);
    await until(() => runner.ran.includes('v4'), 'B to run the job');
    await owner.close();
    expect(await answer).toMatchObject({ ok: false, code: 'shutting_down' });
    // B's reaper finds the job's owner gone: the run stops and the sample goes, once.
    await until(() => runner.discarded.length > 0, 'the sample to be discarded', 4 * LEASE_MS);
    expect(runner.discarded).toEqual(['v4']);
    await until(() => runner.aborted.includes('v4'), 'the run to stop');
  });

  it('M-9 the limit passing stops the job where it runs and answers unavailable', async () => {
    const prefix = `vj-${++runs}:`;
    const a = await instance(prefix, 'A', 0, watched().deps);
    const runner = watched(() => true);
    const b = await instance(prefix, 'B', 1, runner.deps);
    expect(await a.analyse(job('v5'), 500)).toMatchObject({ ok: false, code: 'unavailable' });
    await until(() => runner.aborted.includes('v5'), 'the run to stop');
    // The run's end is written to Redis after the run returns: read the state once it has been
    // (on a loaded machine the read above came first, and the job still showed as running).
    await until(async () => (await b.state()).running.length === 0, 'the job to leave running');
    expect(await b.state()).toMatchObject({ running: [], waiting: 0 });
  });
});
