import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerJobs, JobFailure } from './worker-job.ts';

const entry = { source: new URL('./spin-cpu.fixture.ts', import.meta.url), bundle: 'unused.js' };

describe('jobs on worker threads', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(() => close?.());

  it('holds a job that ends between two reads of the meter to its CPU budget', async () => {
    const jobs = createWorkerJobs<{ cpuMs: number }, number>({ entry, keepIdle: 1 });
    close = jobs.close;
    // A first job starts the thread, so the next ones are metered from their first millisecond.
    await jobs.run({ cpuMs: 0 }, { timeoutMs: 60_000 });
    // Well inside its budget: answered, and the thread is kept.
    await expect(
      jobs.run({ cpuMs: 30 }, { timeoutMs: 60_000, cpuBudgetMs: 1_000 }),
    ).resolves.toBeGreaterThanOrEqual(30);
    // Over it, and done long before the meter's next read (every 200 ms): refused all the same.
    const error = await jobs
      .run({ cpuMs: 60 }, { timeoutMs: 60_000, cpuBudgetMs: 20 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailure);
    expect(error).toMatchObject({ code: 'too_complex' });
    expect((error as JobFailure).message).toMatch(/over its budget of 20 ms/);
  });
});
