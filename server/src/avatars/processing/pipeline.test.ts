import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { malformedGlb, notGlb, TEST_MODELS } from '../../test-support/glb-models.ts';
import { outOfRangeIndices } from '../../test-support/hostile-glb.ts';
import { processModel, ProcessingError, type ProcessingResult } from './pipeline.ts';

const models = {} as Record<keyof typeof TEST_MODELS, ProcessingResult>;
const steps: Record<string, [string, number][]> = {};

beforeAll(async () => {
  for (const [name, build] of Object.entries(TEST_MODELS) as [
    keyof typeof TEST_MODELS,
    () => Promise<Uint8Array>,
  ][]) {
    const seen: [string, number][] = [];
    models[name] = await processModel(await build(), { onStep: (s, p) => seen.push([s, p]) });
    steps[name] = seen;
  }
}, 60_000);

describe('processing uploaded models', () => {
  it('reports each step once, passing 20, 40, 60, 80 in order', () => {
    for (const seen of Object.values(steps)) {
      expect(seen).toEqual([
        ['validating', 20],
        ['inspecting', 40],
        ['analysing', 60],
        ['optimising', 80],
      ]);
    }
  });

  it('a Mixamo export: mixamo rig in T-pose, body and fingers work, no face', () => {
    const { rig, report } = models.mixamo.analysis;
    expect(rig.rigType).toBe('mixamo');
    expect(rig.basePose).toBe('T');
    expect(rig.missingCoreBones).toEqual([]);
    expect(report.works).toEqual(expect.arrayContaining(['skeleton', 'fingers', 'eyes', 'jaw', 'pose']));
    expect(report.missing).toEqual(expect.arrayContaining(['visemes', 'blink', 'expressions']));
    expect(report.score).toBe(35 + 10 + 5 + 5 + 5);
  });

  it('a Ready Player Me-style rig with visemes and ARKit shapes scores highest', () => {
    const { rig, report, animationConfig } = models.readyPlayerMe.analysis;
    expect(rig.rigType).toBe('humanoid');
    expect(rig.visemes).toHaveLength(15);
    expect(animationConfig.lipSync).toBe('visemes');
    expect(report.missing).toEqual(['expressions']); // only smiles and brows of the nine
    expect(report.score).toBeGreaterThan(models.mixamo.analysis.report.score);
  });

  it('detects an A-pose from the arm direction', () => {
    expect(models.aPose.analysis.rig.basePose).toBe('A');
    expect(models.readyPlayerMe.analysis.rig.basePose).toBe('T');
  });

  it('a rig without face morphs animates the body but has no lip-sync shapes', () => {
    const { report, animationConfig } = models.noFaceMorphs.analysis;
    expect(report.missing).toEqual(expect.arrayContaining(['visemes', 'blink']));
    expect(animationConfig.lipSync).toBe('jaw');
    expect(animationConfig.gestures).toBe(true);
  });

  it('a static non-humanoid mesh is accepted with a low score and a no-skeleton warning', () => {
    const { rig, report, animationConfig } = models.staticMesh.analysis;
    expect(rig.skinned).toBe(false);
    expect(rig.rigType).toBe('custom');
    expect(report.score).toBe(0);
    expect(report.warnings).toContain('no_skeleton');
    expect(animationConfig.gestures).toBe(false);
  });

  it('scales a 4096² texture down to 2048² and the output still reads with its morph names', async () => {
    expect(models.bigTexture.analysis.report.warnings).toContain('large_textures');
    const io = new NodeIO()
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
    await MeshoptDecoder.ready;
    const doc = await io.readBinary(models.bigTexture.model);
    expect(doc.getRoot().listTextures()[0]?.getSize()).toEqual([2048, 2048]);
    expect(
      doc
        .getRoot()
        .listExtensionsUsed()
        .map((e) => e.extensionName),
    ).toContain('EXT_meshopt_compression');
    const names = doc.getRoot().listMeshes()[0]?.getExtras().targetNames;
    expect(names).toHaveLength(15);
  });

  it('makes models smaller and records the sizes', () => {
    for (const result of Object.values(models)) {
      expect(result.processedSize).toBe(result.model.byteLength);
      expect(result.compressionRatio).toBeCloseTo(result.processedSize / result.originalSize, 2);
    }
    expect(models.bigTexture.processedSize).toBeLessThan(models.bigTexture.originalSize);
  });

  it.each([
    ['a file that is not glTF', notGlb(), 'invalid_glb'],
    [
      'a GLB whose JSON is broken (refused by the checks before processing)',
      malformedGlb(),
      'model_rejected',
    ],
    ['a model the validator refuses', outOfRangeIndices(), 'validation_failed'],
  ])('rejects %s', async (_, bytes, code) => {
    const error = await processModel(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessingError);
    expect((error as ProcessingError).code).toBe(code);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const bytes = await TEST_MODELS.readyPlayerMe();
    const run = processModel(bytes, {
      signal: controller.signal,
      onStep: (s) => s === 'inspecting' && controller.abort(),
    });
    await expect(run).rejects.toThrow(/abort/i);
  });
});
