import type { ModelFinding } from '@alma/protocol';
import { Logger } from '@gltf-transform/core';
import { analyse, type Analysis } from './analyse.ts';
import { gltfIO, hasGlbHeader } from './gltf-io.ts';
import { inspectDocument, type ModelInspection } from './inspect.ts';
import { bytesSource } from './byte-source.ts';
import { optimiseDocument } from './optimise.ts';
import { preflightGlb } from './preflight.ts';
import { validateGlb } from './validate.ts';

/**
 * One upload's processing, step by step (ARCHITECTURE §6): validate → inspect → analyse (rig,
 * pose, score, report) → optimise. Progress passes 20, 40, 60, 80 as each step finishes (spec §4);
 * the caller stores the result and reports 100. Runs in a worker thread (worker.ts); pure enough
 * to run in-process in tests.
 */

export const PROCESSING_STEPS = ['validating', 'inspecting', 'analysing', 'optimising'] as const;
export type ProcessingStep = (typeof PROCESSING_STEPS)[number];

/** Progress after each step; storing the result completes at 100. */
export const STEP_PROGRESS: Record<ProcessingStep, number> = {
  validating: 20,
  inspecting: 40,
  analysing: 60,
  optimising: 80,
};

export interface ProcessingResult {
  model: Uint8Array;
  originalSize: number;
  processedSize: number;
  compressionRatio: number;
  inspection: ModelInspection;
  analysis: Analysis;
  validation: { errors: number; warnings: number };
}

/** A failure the user can act on: `code` picks the localised message. */
export class ProcessingError extends Error {
  constructor(
    readonly code:
      'invalid_glb' | 'model_rejected' | 'validation_failed' | 'unreadable_model' | 'empty_model',
    detail: string,
    /** What the checks or the validator found, for the user. */
    readonly findings: ModelFinding[] = [],
  ) {
    super(detail);
    this.name = 'ProcessingError';
  }
}

export interface PipelineHooks {
  signal?: AbortSignal;
  /** Stop after the analysis (the compatibility check): `model` is then the input, untouched. */
  analyseOnly?: boolean;
  onStep?: (step: ProcessingStep, progress: number) => void;
}

export async function processModel(bytes: Uint8Array, hooks: PipelineHooks = {}): Promise<ProcessingResult> {
  const { signal, onStep, analyseOnly = false } = hooks;
  if (!hasGlbHeader(bytes)) throw new ProcessingError('invalid_glb', 'not a glTF 2.0 binary (.glb)');
  // The upload route ran these checks already; a job queued before they existed (AU-8) had not.
  const preflight = await preflightGlb(bytesSource(bytes));
  if (!preflight.ok)
    throw new ProcessingError(
      'model_rejected',
      preflight.findings.map((f) => f.reason).join(', '),
      preflight.findings,
    );

  const validation = await validateGlb(bytes);
  if (validation.errors > 0) throw new ProcessingError('validation_failed', validation.messages.join('; '));
  signal?.throwIfAborted();
  onStep?.('validating', STEP_PROGRESS.validating);

  const io = await gltfIO();
  let doc;
  try {
    doc = await io.readBinary(bytes);
    doc.setLogger(new Logger(Logger.Verbosity.WARN));
  } catch (error) {
    throw new ProcessingError('unreadable_model', error instanceof Error ? error.message : String(error));
  }
  const inspection = inspectDocument(doc);
  if (inspection.meshes === 0 || inspection.vertexCount === 0)
    throw new ProcessingError('empty_model', 'no meshes');
  signal?.throwIfAborted();
  onStep?.('inspecting', STEP_PROGRESS.inspecting);

  const analysis = analyse(inspection);
  onStep?.('analysing', STEP_PROGRESS.analysing);
  const validationCounts = { errors: validation.errors, warnings: validation.warnings };
  if (analyseOnly) {
    const size = bytes.byteLength;
    return {
      model: bytes,
      originalSize: size,
      processedSize: size,
      compressionRatio: 1,
      inspection,
      analysis,
      validation: validationCounts,
    };
  }

  await optimiseDocument(doc, signal);
  const model = await io.writeBinary(doc);
  signal?.throwIfAborted();
  onStep?.('optimising', STEP_PROGRESS.optimising);

  return {
    model,
    originalSize: bytes.byteLength,
    processedSize: model.byteLength,
    compressionRatio: Math.round((model.byteLength / bytes.byteLength) * 1000) / 1000,
    inspection,
    analysis,
    validation: validationCounts,
  };
}
