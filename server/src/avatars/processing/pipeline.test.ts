import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { modelFindingMessage, type ModelFinding } from '@alma/protocol';
import draco3d from 'draco3dgltf';
import { malformedGlb, notGlb, REAL_WORLD_VARIANTS, TEST_MODELS } from '../../test-support/glb-models.ts';
import { outOfRangeIndices } from '../../test-support/hostile-glb.ts';
import { processModel, ProcessingError, type ProcessingResult } from './pipeline.ts';
import { validateGlb } from './validate.ts';

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
  it('reports validation as it starts (10), then each step once, passing 20, 40, 60, 80 in order', () => {
    for (const seen of Object.values(steps)) {
      expect(seen).toEqual([
        ['validating', 10],
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

  it('a static non-humanoid mesh is accepted with a low score; the report says it cannot speak or gesture (AU-14)', () => {
    const { rig, report, animationConfig } = models.staticMesh.analysis;
    expect(rig.skinned).toBe(false);
    expect(rig.morphTargets).toEqual([]);
    expect(rig.rigType).toBe('custom');
    expect(report.score).toBe(0);
    expect(report.warnings).toEqual(['static_mesh', 'no_skeleton', 'no_lip_sync']);
    expect(animationConfig).toMatchObject({ lipSync: 'none', gestures: false, expressions: false });
  });

  it('a rigged, shaped model carries no static-mesh warning (AU-14)', () => {
    expect(models.readyPlayerMe.analysis.report.warnings).not.toContain('static_mesh');
    expect(models.readyPlayerMe.analysis.report.warnings).not.toContain('no_lip_sync');
    expect(models.noFaceMorphs.analysis.report.warnings).not.toContain('static_mesh');
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

describe('what the client loads, repairs, never bigger (AU-12)', () => {
  const variants = {} as Record<
    keyof typeof REAL_WORLD_VARIANTS,
    { input: Uint8Array; result: ProcessingResult }
  >;
  let reader: NodeIO;
  beforeAll(async () => {
    await MeshoptDecoder.ready;
    reader = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
      'meshopt.decoder': MeshoptDecoder,
      'draco3d.decoder': await draco3d.createDecoderModule(),
    });
    for (const [name, build] of Object.entries(REAL_WORLD_VARIANTS)) {
      const input = await build();
      variants[name as keyof typeof REAL_WORLD_VARIANTS] = { input, result: await processModel(input) };
    }
  }, 120_000);

  it('never makes a model bigger than it arrived: every ratio is at most 1', () => {
    for (const { input, result } of [
      ...Object.values(variants),
      ...Object.values(models).map((result) => ({ input: null, result })),
    ]) {
      expect(result.compressionRatio).toBeLessThanOrEqual(1);
      expect(result.processedSize).toBeLessThanOrEqual(input?.byteLength ?? result.originalSize);
    }
  });

  it('keeps a texture whose re-encoding would be larger, byte for byte', async () => {
    const { input, result } = variants.lowQualityJpeg;
    const before = (await reader.readBinary(input)).getRoot().listTextures()[0]?.getImage();
    const after = (await reader.readBinary(result.model)).getRoot().listTextures()[0]?.getImage();
    expect(after && before && Buffer.compare(after, before)).toBe(0);
  });

  it('keeps an already meshopt-compressed model as it came when optimising gains nothing', () => {
    const { input, result } = variants.meshoptCompressed;
    expect(result.compressionRatio).toBeLessThanOrEqual(1);
    expect(result.analysis.rig.visemes).toHaveLength(15);
    if (result.compressionRatio === 1) expect(Buffer.compare(result.model, input)).toBe(0);
  });

  it('says in the report which extensions the stored model keeps, exactly those it uses', async () => {
    for (const { result } of Object.values(variants)) {
      const used = (await reader.readBinary(result.model))
        .getRoot()
        .listExtensionsUsed()
        .map((e) => e.extensionName)
        .sort();
      expect(result.analysis.report.extensions).toEqual(used);
    }
    expect(variants.texturedKtx2.result.analysis.report.extensions).toContain('KHR_texture_basisu');
  });

  it('accepts KTX2 (Basis) textures and keeps them KTX2, with their extension required', async () => {
    const doc = await reader.readBinary(variants.texturedKtx2.result.model);
    expect(doc.getRoot().listTextures()[0]?.getMimeType()).toBe('image/ktx2');
    const required = doc
      .getRoot()
      .listExtensionsUsed()
      .filter((e) => e.isRequired())
      .map((e) => e.extensionName);
    expect(required).toContain('KHR_texture_basisu');
  });

  it('accepts Draco and WebP models and reads their rigs', () => {
    expect(variants.dracoCompressed.result.analysis.rig).toMatchObject({
      skinned: true,
      rigType: 'humanoid',
    });
    expect(variants.texturedWebp.result.analysis.rig.textures).toBe(1);
  });

  it('removes embedded animations and says so in the report', async () => {
    const { result } = variants.animated;
    expect(result.analysis.report.removedAnimations).toBe(1);
    expect(result.analysis.report.warnings).not.toContain('embedded_animations_ignored');
    expect((await reader.readBinary(result.model)).getRoot().listAnimations()).toHaveLength(0);
  });

  it('repairs skin weights that do not add up to 1, validates again and lists the repair', async () => {
    const { input, result } = variants.unnormalisedWeights;
    expect((await validateGlb(input)).byCode.map((i) => i.code)).toEqual(['ACCESSOR_WEIGHTS_NON_NORMALIZED']);
    expect(result.analysis.report.repaired).toEqual([
      { code: 'ACCESSOR_WEIGHTS_NON_NORMALIZED', count: 448 },
    ]);
    expect((await validateGlb(result.model)).errors).toBe(0);
  });

  it("refuses what cannot be repaired with the validator's findings: code, count, where, how to re-export", async () => {
    const error = await processModel(outOfRangeIndices()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProcessingError);
    const { code, findings } = error as ProcessingError;
    expect(code).toBe('validation_failed');
    expect(findings.map((f) => f.reason)).toEqual(['validator_error', 'reexport_hint']);
    expect(findings[0]?.params).toMatchObject({
      code: 'ACCESSOR_INDEX_OOB',
      count: 1,
      pointer: '/meshes/0/primitives/0/indices',
    });
    expect(modelFindingMessage('es', findings[0] as ModelFinding)).toBe(
      'Triángulos que apuntan a vértices que no existen (ACCESSOR_INDEX_OOB): 1 vez, la primera en /meshes/0/primitives/0/indices.',
    );
    expect(modelFindingMessage('en', findings[0] as ModelFinding)).toBe(
      "Triangles that point to vertices that don't exist (ACCESSOR_INDEX_OOB): 1 time, first at /meshes/0/primitives/0/indices.",
    );
  });
});
