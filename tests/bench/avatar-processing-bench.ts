/**
 * Custom avatar processing benchmark (part of `npm run bench`; alone:
 * `tsx tests/bench/avatar-processing-bench.ts`).
 *
 * Processing time and size reduction for a ~10 MB and a ~50 MB model (generated rigged humanoids
 * with visemes, filler geometry and a large texture), through the whole pipeline of SPEC.md AU-3
 * (validate → inspect → analyse → optimise). Baseline, measured in the same run on the same bytes:
 * the compatibility check (the same pipeline stopping after the analysis, AU-9), so the ratio is
 * what optimisation costs on top of reading and checking the model.
 * Figures and ratios are printed; no thresholds. BENCH_RUNS (default 3) runs per size.
 */
import { VISEME_MORPHS } from '@alma/protocol';
import { processModel } from '@alma/server';
import { buildRiggedModel } from '@alma/server/test-support';
import { mkdirSync, writeFileSync } from 'node:fs';

const RUNS = Number(process.env.BENCH_RUNS) || 3;

const SIZES = [
  { label: '10 MB', extraVertices: 42_000, textureSize: 2048 },
  { label: '50 MB', extraVertices: 213_000, textureSize: 4096 },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const rows = [];
for (const size of SIZES) {
  const bytes = await buildRiggedModel({
    morphs: VISEME_MORPHS,
    extraVertices: size.extraVertices,
    textureSize: size.textureSize,
  });
  const baseline: number[] = [];
  const processing: number[] = [];
  let processed = 0;
  for (let run = 0; run < RUNS; run++) {
    baseline.push(await time(() => processModel(bytes, { analyseOnly: true })));
    processing.push(
      await time(async () => {
        processed = (await processModel(bytes)).processedSize;
      }),
    );
  }
  const row = {
    model: size.label,
    originalBytes: bytes.length,
    processedBytes: processed,
    sizeRatio: Number((processed / bytes.length).toFixed(3)),
    baselineMs: Math.round(median(baseline)),
    processingMs: Math.round(median(processing)),
    processingOverBaseline: Number((median(processing) / median(baseline)).toFixed(1)),
  };
  rows.push(row);
  console.log(
    `${row.model.padEnd(6)} ${mb(row.originalBytes).padStart(8)} → ${mb(row.processedBytes).padStart(8)} ` +
      `(${(row.sizeRatio * 100).toFixed(1)} % of the original)  processing ${row.processingMs} ms, ` +
      `baseline check only ${row.baselineMs} ms, ratio ${row.processingOverBaseline}×`,
  );
}
const dir = new URL('./results/', import.meta.url);
mkdirSync(dir, { recursive: true });
writeFileSync(
  new URL('avatar-processing-latest.json', dir),
  `${JSON.stringify({ runs: RUNS, rows }, null, 2)}\n`,
);
