import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { notGlb, TEST_MODELS } from '../../test-support/glb-models.ts';
import { hasGlbHeader } from './gltf-io.ts';
import { JobFailure, runProcessingJob } from './run-job.ts';

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
      onStep: (_, p) => steps.push(p),
    });
    expect(steps).toEqual([20, 40, 60, 80]);
    expect(result.analysis.rig.visemes).toHaveLength(15);
    const written = readFileSync(output);
    expect(hasGlbHeader(written)).toBe(true);
    expect(written.length).toBe(result.processedSize);
  });

  it('passes the pipeline failure code through', async () => {
    const input = join(dir, 'bad.glb');
    writeFileSync(input, notGlb());
    await expect(
      runProcessingJob({ inputPath: input, outputPath: join(dir, 'bad-out.glb'), timeoutMs: 60_000 }),
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
      signal: controller.signal,
      onStep: () => controller.abort(),
    });
    await expect(run).rejects.toEqual(new JobFailure('cancelled', 'cancelled'));
    await expect(
      runProcessingJob({ inputPath: input, outputPath: join(dir, 't-out.glb'), timeoutMs: 1 }),
    ).rejects.toMatchObject({ code: 'timeout' });
  });
});
