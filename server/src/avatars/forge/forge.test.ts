import { ARKIT_MORPHS, VISEME_MORPHS } from '@alma/protocol';
import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET_BYTES } from './budget.ts';
import { CHARACTERS } from './characters/index.ts';
import { MORPH_NAMES } from './face-states.ts';
import { compressGlb, exportGlb, validateGlb } from './export.ts';
import { buildScene, forgeModel } from './forge.ts';
import { RIG_BONE_NAMES } from './rig.ts';

/** The canonical rig the client engine expects (ARCHITECTURE §6): Mixamo names, no prefix. */
const CANONICAL = [
  'Hips',
  'Spine',
  'Spine1',
  'Spine2',
  'Neck',
  'Head',
  'HeadTop_End',
  'Jaw',
  'LeftEye',
  'RightEye',
  ...['Left', 'Right'].flatMap((s) => [
    `${s}Shoulder`,
    `${s}Arm`,
    `${s}ForeArm`,
    `${s}Hand`,
    ...['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'].flatMap((f) =>
      [1, 2, 3, 4].map((i) => `${s}Hand${f}${i}`),
    ),
    `${s}UpLeg`,
    `${s}Leg`,
    `${s}Foot`,
    `${s}ToeBase`,
    `${s}Toe_End`,
  ]),
];

const VISEMES = VISEME_MORPHS;
const ARKIT = ARKIT_MORPHS;

interface GltfJson {
  nodes: { name?: string; mesh?: number }[];
  skins: { joints: number[] }[];
  meshes: { name?: string; extras?: { targetNames?: string[] } }[];
  materials: {
    name?: string;
    emissiveFactor?: number[];
    extensions?: { KHR_materials_sheen?: { sheenColorFactor?: number[]; sheenRoughnessFactor?: number } };
  }[];
  extensionsUsed?: string[];
}

function glbJson(glb: Uint8Array): GltfJson {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const length = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length))) as GltfJson;
}

const ids = Object.keys(CHARACTERS);

describe('AV-4 the forge', () => {
  it('makes the eight system avatars and the default model', () => {
    expect(ids.sort()).toEqual(
      ['deerWoman', 'default', 'elf', 'golem', 'robot', 'robotina', 'samuraiF', 'vampireF', 'witch'].sort(),
    );
    expect(RIG_BONE_NAMES).toHaveLength(68);
    expect([...RIG_BONE_NAMES].sort()).toEqual([...CANONICAL].sort());
    expect([...MORPH_NAMES].sort()).toEqual([...VISEMES, ...ARKIT].sort());
  });

  describe.each(ids)('%s', (id) => {
    const spec = CHARACTERS[id];
    if (!spec) throw new Error(id);

    it('is valid glTF with the canonical rig and every face morph, within the size budget, and deterministic', async () => {
      const raw = await exportGlb(buildScene(spec));
      const report = await validateGlb(raw);
      expect(report.issues.messages.filter((m) => m.severity === 0)).toEqual([]);

      const json = glbJson(raw);
      const skin = json.skins[0];
      expect(skin).toBeDefined();
      const joints = new Set((skin?.joints ?? []).map((j) => json.nodes[j]?.name));
      for (const bone of CANONICAL) expect(joints.has(bone), bone).toBe(true);
      const faceNode = json.nodes.find((n) => n.name === 'Face');
      const face = json.meshes[faceNode?.mesh ?? -1];
      expect(face?.extras?.targetNames).toEqual([...MORPH_NAMES]);

      const glb = await compressGlb(raw);
      expect(glb.byteLength).toBeLessThanOrEqual(SIZE_BUDGET_BYTES);
      expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe('glTF');

      // AV-6: skin, cloth and hair keep their sheen (the rim) through compression; skin glows
      // faintly in its own colour (soft shading).
      const served = glbJson(glb);
      expect(served.extensionsUsed).toContain('KHR_materials_sheen');
      for (const material of served.materials.filter((m) =>
        ['skin', 'cloth', 'hair'].includes(m.name ?? ''),
      )) {
        const sheen = material.extensions?.KHR_materials_sheen;
        expect(Math.max(...(sheen?.sheenColorFactor ?? [0])), material.name).toBeGreaterThan(0.1);
      }
      const skinMaterial = served.materials.find((m) => m.name === 'skin');
      expect(Math.max(...(skinMaterial?.emissiveFactor ?? [0]))).toBeGreaterThan(0);

      // Morph names survive compression: read back with the meshopt decoder.
      await MeshoptDecoder.ready;
      const io = new NodeIO()
        .registerExtensions([EXTMeshoptCompression, KHRMeshQuantization])
        .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
      const doc = await io.readBinary(glb);
      const faceMesh = doc
        .getRoot()
        .listNodes()
        .find((n) => n.getName() === 'Face')
        ?.getMesh();
      expect(faceMesh?.getExtras()).toMatchObject({ targetNames: [...MORPH_NAMES] });

      // Same parameters, same bytes.
      const again = await forgeModel(spec);
      expect(Buffer.from(again.glb).equals(Buffer.from(glb))).toBe(true);
    }, 120_000);
  });
});
