import type { ModelFinding } from '@alma/protocol';
import { Logger, type Document } from '@gltf-transform/core';
import { cloneDocument } from '@gltf-transform/functions';
import { analyse, type Analysis } from './analyse.ts';
import { bytesSource } from './byte-source.ts';
import { gltfIO, hasGlbHeader } from './gltf-io.ts';
import { inspectDocument, type ModelInspection } from './inspect.ts';
import { optimiseDocument } from './optimise.ts';
import { renderPortrait } from '../portrait/portrait.ts';
import { preflightGlb } from './preflight.ts';
import { isRepairable, removeAnimations, repairDocument } from './repair.ts';
import { validateGlb, validatorFindings, type ValidationSummary } from './validate.ts';

/**
 * One upload's processing, step by step (ARCHITECTURE §6; SPEC.md AU-3, AU-12): the checks before
 * processing → validate (and repair what can be mended, then validate again) → inspect → analyse
 * (rig, pose, score, report) → portrait (AV-7) → optimise. Progress: 10 as validation starts, then 20, 40, 60, 80 as
 * each step finishes (spec §4); the caller stores the result and reports 100. Runs in a worker
 * thread (worker.ts); pure enough to run in-process in tests.
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
/** Progress pushed as validation starts, so a refusal is seen at its step. */
export const VALIDATION_STARTED = 10;

export interface ProcessingResult {
  model: Uint8Array;
  /** The picker's portrait (WebP; AV-7), null when it could not be drawn or only analysing. */
  portrait: Uint8Array | null;
  originalSize: number;
  processedSize: number;
  /** processedSize / originalSize: never above 1 (the original is kept when nothing is gained). */
  compressionRatio: number;
  inspection: ModelInspection;
  analysis: Analysis;
  validation: { errors: number; warnings: number };
}

/** A failure the user can act on: `code` picks the localised message; `findings` say why. */
export class ProcessingError extends Error {
  constructor(
    readonly code:
      'invalid_glb' | 'model_rejected' | 'validation_failed' | 'unreadable_model' | 'empty_model',
    detail: string,
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

const COMPRESSION = ['EXT_meshopt_compression', 'KHR_draco_mesh_compression'];

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

  onStep?.('validating', VALIDATION_STARTED);
  const validation = await validateGlb(bytes);
  const unrepairable = validation.byCode.filter((i) => !isRepairable(i.code)).map((i) => i.code);
  if (unrepairable.length) throw refused(validation, unrepairable);
  signal?.throwIfAborted();

  const io = await gltfIO();
  let doc: Document;
  try {
    doc = await io.readBinary(bytes);
    doc.setLogger(new Logger(Logger.Verbosity.WARN));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ProcessingError(
      'unreadable_model',
      detail,
      validation.errors ? validatorFindings(validation) : [],
    );
  }
  const arrivedWith = extensionsOf(doc);
  const compressed = doc
    .getRoot()
    .listExtensionsUsed()
    .some((e) => COMPRESSION.includes(e.extensionName));
  // Draco is decoded once and for all: the output is re-compressed with meshopt.
  for (const e of doc.getRoot().listExtensionsUsed())
    if (e.extensionName === 'KHR_draco_mesh_compression') e.dispose();
  const removedAnimations = removeAnimations(doc);
  const repaired = validation.errors || compressed ? repairDocument(doc) : {};
  // Errors mended by writing the document anew (layout, bounds) or by removing the animations.
  for (const issue of validation.byCode) repaired[issue.code] ??= issue.count;
  if (validation.errors || compressed) {
    // Validated again as it now is, uncompressed: the validator can't see inside meshopt/Draco.
    const again = await validateGlb(await writeUncompressed(doc));
    if (again.errors) throw refused(again);
  }
  signal?.throwIfAborted();
  onStep?.('validating', STEP_PROGRESS.validating);

  const inspection = inspectDocument(doc);
  if (inspection.meshes === 0 || inspection.vertexCount === 0)
    throw new ProcessingError('empty_model', 'no meshes');
  signal?.throwIfAborted();
  onStep?.('inspecting', STEP_PROGRESS.inspecting);

  const analysis = analyse(inspection, {
    repaired: Object.entries(repaired).map(([code, count]) => ({ code, count })),
    removedAnimations,
    droppedExtensions: preflight.summary.extensionsDropped,
  });
  onStep?.('analysing', STEP_PROGRESS.analysing);
  const result = (model: Uint8Array, extensions: string[], portrait: Uint8Array | null = null) => ({
    model,
    portrait,
    originalSize: bytes.byteLength,
    processedSize: model.byteLength,
    compressionRatio: Math.round((model.byteLength / bytes.byteLength) * 1000) / 1000,
    inspection,
    analysis: { ...analysis, report: { ...analysis.report, extensions } },
    validation: { errors: validation.errors, warnings: validation.warnings },
  });
  if (analyseOnly) return result(bytes, arrivedWith);

  // Drawn from the document as it arrived (repaired), before quantisation: a picture the picker
  // does without rather than an upload refused for it.
  const portrait = await renderPortrait(doc).catch(() => null);
  signal?.throwIfAborted();
  await optimiseDocument(doc, signal);
  const optimised = await io.writeBinary(doc);
  signal?.throwIfAborted();
  onStep?.('optimising', STEP_PROGRESS.optimising);
  // Never bigger than it arrived: an upload nothing had to change is kept as it came when
  // optimising gains nothing (an already meshopt-compressed model, say).
  const untouched =
    !Object.keys(repaired).length && !removedAnimations && !preflight.summary.extensionsDropped.length;
  return untouched && optimised.byteLength >= bytes.byteLength
    ? result(bytes, arrivedWith, portrait)
    : result(optimised, extensionsOf(doc), portrait);
}

/** The extensions a document uses, sorted: what the report says the stored model keeps. */
const extensionsOf = (doc: Document): string[] =>
  doc
    .getRoot()
    .listExtensionsUsed()
    .map((e) => e.extensionName)
    .sort();

function refused(validation: ValidationSummary, codes?: string[]): ProcessingError {
  const shown = validation.byCode.filter((i) => !codes || codes.includes(i.code));
  return new ProcessingError(
    'validation_failed',
    shown.map((i) => `${i.code} ×${i.count}`).join('; '),
    validatorFindings(validation, codes),
  );
}

/** The document as the validator should see it: compression extensions taken off a copy. */
async function writeUncompressed(doc: Document): Promise<Uint8Array> {
  const copy = cloneDocument(doc);
  for (const e of copy.getRoot().listExtensionsUsed()) if (COMPRESSION.includes(e.extensionName)) e.dispose();
  return (await gltfIO()).writeBinary(copy);
}
