import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { notGlb, TEST_MODELS } from '../../test-support/glb-models.ts';
import { manyNamedNodes } from '../../test-support/hostile-glb.ts';
import { hasGlbHeader } from './gltf-io.ts';
import { JobFailure, runProcessingJob } from './run-job.ts';

// Every job runs on a real worker thread: on a busy 2-core machine one takes up to a minute.
vi.setConfig({ testTimeout: 180_000 });

const dir = mkdtempSync(join(tmpdir(), 'alma-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('processing on a worker thread', () => {
  it('reports the steps and writes the optimised model', async () => {
    const input = join(dir, 'in.glb');
    const output = join(dir, 'out.glb');
    writeFileSync(input, await TEST_MODELS.readyPlayerMe());
    const steps: number[] = [];
    const result = await runProcessingJob({
      inputPath: input,
      outputPath: output,
      timeoutMs: 60_000,
      cpuBudgetMs: 60_000,
      onStep: (_, p) => steps.push(p),
    });
    expect(steps).toEqual([10, 20, 40, 60, 80]);
    expect(result.analysis.rig.visemes).toHaveLength(15);
    const written = readFileSync(output);
    expect(hasGlbHeader(written)).toBe(true);
    expect(written.length).toBe(result.processedSize);
  });

  it('passes the pipeline failure code through', async () => {
    const input = join(dir, 'bad.glb');
    writeFileSync(input, notGlb());
    await expect(
      runProcessingJob({
        inputPath: input,
        outputPath: join(dir, 'bad-out.glb'),
        timeoutMs: 60_000,
        cpuBudgetMs: 60_000,
      }),
    ).rejects.toMatchObject({ code: 'invalid_glb' });
  });

  it('terminates the thread when cancelled and when over time', async () => {
    const input = join(dir, 'c.glb');
    writeFileSync(input, await TEST_MODELS.bigTexture());
    const controller = new AbortController();
    const run = runProcessingJob({
      inputPath: input,
      outputPath: join(dir, 'c-out.glb'),
      timeoutMs: 60_000,
      cpuBudgetMs: 60_000,
      signal: controller.signal,
      onStep: () => controller.abort(),
    });
    await expect(run).rejects.toEqual(new JobFailure('cancelled', 'cancelled'));
    await expect(
      runProcessingJob({
        inputPath: input,
        outputPath: join(dir, 't-out.glb'),
        timeoutMs: 1,
        cpuBudgetMs: 60_000,
      }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });

  it('stops a job over its CPU budget and reports it as too complex (AU-3)', async () => {
    const input = join(dir, 'cpu.glb');
    writeFileSync(input, await TEST_MODELS.readyPlayerMe());
    const error = await runProcessingJob({
      inputPath: input,
      outputPath: join(dir, 'cpu-out.glb'),
      timeoutMs: 60_000,
      cpuBudgetMs: 50,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailure);
    expect(error).toMatchObject({ code: 'too_complex' });
    expect((error as JobFailure).message).toMatch(/CPU/);
  });

  it('a job that outgrows its heap dies alone, reported as too complex; the next one runs (AU-3)', async () => {
    const heavy = join(dir, 'heavy.glb');
    const light = join(dir, 'light.glb');
    writeFileSync(heavy, manyNamedNodes());
    writeFileSync(light, await TEST_MODELS.readyPlayerMe());
    const limits = { timeoutMs: 120_000, cpuBudgetMs: 120_000, heapMb: 32 };
    const [failed, passed] = await Promise.all([
      runProcessingJob({ inputPath: heavy, outputPath: join(dir, 'heavy-out.glb'), ...limits }).catch(
        (e: unknown) => e,
      ),
      runProcessingJob({ inputPath: light, outputPath: join(dir, 'light-out.glb'), ...limits }),
    ]);
    expect(failed).toMatchObject({ code: 'too_complex', message: 'ran out of its 32 MB of memory' });
    expect(passed.analysis.rig.visemes).toHaveLength(15);
  }, 120_000);
});
