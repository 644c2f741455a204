import { VISEME_MORPHS } from '@alma/protocol';
import { Document, type Node as GltfNode } from '@gltf-transform/core';
import {
  addAnimation,
  requireTextureExtensions,
  textureImage,
  writeModel,
  type TextureOptions,
} from './glb-variants.ts';

/**
 * Test models in the shapes users actually upload (issue #7): a Mixamo export, a Ready Player
 * Me-style rig with ARKit and Oculus morphs, an A-pose rig, a rig without face morphs, a static
 * non-humanoid mesh and a model with a 4096² texture — each a real, valid GLB built in memory
 * with glTF-Transform, plus the broken files (malformed, not glTF, oversize). Nothing binary is
 * committed; every test builds what it needs.
 */

type Vec3 = [number, number, number];

/** Canonical bone → parent and local offset (metres) in a T-pose; the arm chain runs along ±X. */
const SKELETON: readonly (readonly [name: string, parent: string | null, offset: Vec3])[] = [
  ['Hips', null, [0, 1, 0]],
  ['Spine', 'Hips', [0, 0.1, 0]],
  ['Spine1', 'Spine', [0, 0.12, 0]],
  ['Spine2', 'Spine1', [0, 0.12, 0]],
  ['Neck', 'Spine2', [0, 0.15, 0]],
  ['Head', 'Neck', [0, 0.1, 0]],
  ['HeadTop_End', 'Head', [0, 0.2, 0]],
  ['Jaw', 'Head', [0, 0.02, 0.05]],
  ['LeftEye', 'Head', [0.03, 0.08, 0.08]],
  ['RightEye', 'Head', [-0.03, 0.08, 0.08]],
  ...(['Left', 'Right'] as const).flatMap((side) => {
    const s = side === 'Left' ? 1 : -1;
    const arm: (readonly [string, string | null, Vec3])[] = [
      [`${side}Shoulder`, 'Spine2', [s * 0.06, 0.1, 0]],
      [`${side}Arm`, `${side}Shoulder`, [s * 0.1, 0, 0]],
      [`${side}ForeArm`, `${side}Arm`, [s * 0.26, 0, 0]],
      [`${side}Hand`, `${side}ForeArm`, [s * 0.24, 0, 0]],
    ];
    const fingers = ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky'].flatMap((finger, i) =>
      [1, 2, 3].map((n): readonly [string, string, Vec3] => [
        `${side}Hand${finger}${n}`,
        n === 1 ? `${side}Hand` : `${side}Hand${finger}${n - 1}`,
        n === 1 ? [s * 0.05, 0, 0.03 - i * 0.015] : [s * 0.025, 0, 0],
      ]),
    );
    const leg: (readonly [string, string, Vec3])[] = [
      [`${side}UpLeg`, 'Hips', [s * 0.09, -0.05, 0]],
      [`${side}Leg`, `${side}UpLeg`, [0, -0.42, 0]],
      [`${side}Foot`, `${side}Leg`, [0, -0.42, 0]],
      [`${side}ToeBase`, `${side}Foot`, [0, -0.06, 0.1]],
    ];
    return [...arm, ...fingers, ...leg];
  }),
];

export const VISEMES: readonly string[] = VISEME_MORPHS;
export const ARKIT_FACE = [
  'eyeBlinkLeft',
  'eyeBlinkRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'browInnerUp',
  'jawOpen',
];

export interface RigOptions {
  /** How a canonical name is written in the file: `mixamorig:Hips`, `Hips`, … */
  boneName?: (canonical: string) => string;
  pose?: 'T' | 'A';
  morphs?: readonly string[];
  /** Leave the fingers out (a hand-made rig). */
  fingers?: boolean;
  /** Canonical leaf bones to leave out (`Jaw`, the eyes), as rigs without them come. */
  without?: readonly string[];
  /** Extra vertices to make the mesh heavier (for size tests and benchmarks). */
  extraVertices?: number;
  /** A square base-colour PNG checker of this size in pixels (shorthand for `texture`). */
  textureSize?: number;
  /** A base-colour texture in any format the client loads (glb-variants.ts). */
  texture?: TextureOptions;
  /** Geometry already compressed, as some exporters and tools write it. */
  compression?: 'meshopt' | 'draco';
  /** An embedded animation clip on the head. */
  animation?: boolean;
  /** What each vertex's skin weights add up to: anything but 1 is a validator error. */
  weightsSum?: number;
}

/** A skinned humanoid: a box per bone chain, skinned to its bone, with the given morph targets. */
export async function buildRiggedModel(options: RigOptions = {}): Promise<Uint8Array> {
  const { boneName = (n) => n, pose = 'T', morphs = [], fingers = true, extraVertices = 0 } = options;
  const weightsSum = options.weightsSum ?? 1;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Scene');
  const armature = doc.createNode('Armature');
  scene.addChild(armature);

  const nodes = new Map<string, GltfNode>();
  for (const [name, parent, offset] of SKELETON) {
    if (!fingers && /Hand(Thumb|Index|Middle|Ring|Pinky)/.test(name)) continue;
    if (options.without?.includes(name)) continue;
    const node = doc.createNode(boneName(name)).setTranslation(offset);
    // An A-pose lowers the arms about 45° at the shoulder joint.
    if (pose === 'A' && /^(Left|Right)Arm$/.test(name)) {
      const s = name.startsWith('Left') ? -1 : 1;
      const half = (s * Math.PI) / 8;
      node.setRotation([0, 0, Math.sin(half), Math.cos(half)]);
    }
    nodes.set(name, node);
    (parent ? nodes.get(parent) : armature)?.addChild(node);
  }
  const joints = [...nodes.values()];
  const skin = doc.createSkin('Skin').setSkeleton(joints[0] ?? null);
  for (const j of joints) skin.addJoint(j);
  // Inverse bind matrices from the rest pose's world translations (rotations are small enough to
  // leave out for these test models; validators only check the accessor's shape).
  const ibm = new Float32Array(joints.length * 16);
  joints.forEach((j, i) => {
    const [x, y, z] = j.getWorldTranslation();
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -x, -y, -z, 1], i * 16);
  });
  skin.setInverseBindMatrices(doc.createAccessor('ibm').setType('MAT4').setArray(ibm).setBuffer(buffer));

  // One small box per joint, weighted fully to it, plus optional filler vertices on the hips.
  const positions: number[] = [];
  const jointIdx: number[] = [];
  const weights: number[] = [];
  const indices: number[] = [];
  const box = (center: Vec3, size: number, joint: number) => {
    const base = positions.length / 3;
    for (let k = 0; k < 8; k++) {
      positions.push(
        center[0] + (k & 1 ? size : -size),
        center[1] + (k & 2 ? size : -size),
        center[2] + (k & 4 ? size : -size),
      );
      jointIdx.push(joint, 0, 0, 0);
      weights.push(weightsSum, 0, 0, 0);
    }
    const faces = [
      0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7,
      3,
    ];
    indices.push(...faces.map((f) => base + f));
  };
  joints.forEach((j, i) => box(j.getWorldTranslation(), 0.03, i));
  for (let n = 0; n < Math.ceil(extraVertices / 8); n++) {
    const a = n * 0.618;
    box([Math.cos(a) * 0.2, 1 + (n % 97) / 400, Math.sin(a) * 0.2], 0.005, 0);
  }
  const vertexCount = positions.length / 3;
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer),
    )
    .setAttribute(
      'JOINTS_0',
      doc.createAccessor().setType('VEC4').setArray(new Uint16Array(jointIdx)).setBuffer(buffer),
    )
    .setAttribute(
      'WEIGHTS_0',
      doc.createAccessor().setType('VEC4').setArray(new Float32Array(weights)).setBuffer(buffer),
    )
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(indices)).setBuffer(buffer));

  // Morph targets move the first box (the hips) a little, each along its own direction.
  morphs.forEach((name, m) => {
    const delta = new Float32Array(vertexCount * 3);
    for (let v = 0; v < 8; v++) delta[v * 3 + (m % 3)] = 0.001 * (1 + (m % 5));
    prim.addTarget(
      doc
        .createPrimitiveTarget(name)
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(delta).setBuffer(buffer)),
    );
  });

  const texture = options.texture ?? (options.textureSize ? { size: options.textureSize } : null);
  if (texture) {
    const image = await textureImage(texture);
    const uv = new Float32Array(vertexCount * 2).map((_, i) => (i % 7) / 7);
    prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uv).setBuffer(buffer));
    const base = doc.createTexture('base').setImage(image.bytes).setMimeType(image.mimeType);
    prim.setMaterial(doc.createMaterial('skin').setBaseColorTexture(base));
    requireTextureExtensions(doc);
  }

  const mesh = doc.createMesh('Body').addPrimitive(prim);
  // glTF-Transform writes the targets' names as `extras.targetNames`, as exporters do.
  if (morphs.length) mesh.setWeights(morphs.map(() => 0));
  armature.addChild(doc.createNode('Body').setMesh(mesh).setSkin(skin));
  const head = nodes.get('Head');
  if (options.animation && head) addAnimation(doc, head);
  return writeModel(doc, options.compression);
}

/** A static, non-humanoid mesh: a single triangle-fan disc, no skin, no morphs. */
export async function buildStaticModel(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const positions = [0, 0, 0];
  const indices: number[] = [];
  for (let i = 0; i < 32; i++) {
    const a = (i / 32) * Math.PI * 2;
    positions.push(Math.cos(a), 0, Math.sin(a));
    indices.push(0, 1 + i, 1 + ((i + 1) % 32));
  }
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer),
    )
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer));
  doc.createScene().addChild(doc.createNode('Disc').setMesh(doc.createMesh('Disc').addPrimitive(prim)));
  return writeModel(doc);
}

export const mixamoName = (n: string): string => `mixamorig:${n}`;

/** The shapes of issue #7's test set, by name. */
export const TEST_MODELS = {
  mixamo: () => buildRiggedModel({ boneName: mixamoName }),
  readyPlayerMe: () => buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE] }),
  aPose: () => buildRiggedModel({ pose: 'A', morphs: [...VISEMES, ...ARKIT_FACE] }),
  noFaceMorphs: () => buildRiggedModel({}),
  staticMesh: () => buildStaticModel(),
  bigTexture: () => buildRiggedModel({ morphs: VISEMES, textureSize: 4096 }),
} as const;

/**
 * What real exports carry beyond the bare rig (issue 12), each a Ready Player Me-style model:
 * textures in each format the client loads, geometry already compressed, an animation clip, and
 * skin weights a validator faults but processing repairs. Shared with the end-to-end tests.
 */
export const REAL_WORLD_VARIANTS = {
  texturedPng: () => buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], texture: { size: 512 } }),
  texturedKtx2: () =>
    buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], texture: { size: 256, format: 'ktx2' } }),
  texturedWebp: () =>
    buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], texture: { size: 256, format: 'webp' } }),
  /** A low-quality JPEG: re-encoding it at the usual quality would make it larger. */
  lowQualityJpeg: () =>
    buildRiggedModel({
      morphs: [...VISEMES, ...ARKIT_FACE],
      texture: { size: 512, format: 'jpeg', pattern: 'noise', quality: 30 },
    }),
  meshoptCompressed: () => buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], compression: 'meshopt' }),
  dracoCompressed: () => buildRiggedModel({ compression: 'draco' }),
  animated: () => buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], animation: true }),
  /** Every vertex's weights add up to 0.6: ACCESSOR_WEIGHTS_NON_NORMALIZED, repaired. */
  unnormalisedWeights: () => buildRiggedModel({ morphs: [...VISEMES, ...ARKIT_FACE], weightsSum: 0.6 }),
} as const;

/** A GLB whose header is right but whose JSON chunk is not JSON. */
export function malformedGlb(): Uint8Array {
  const json = Buffer.from('{"asset": {"version": "2.0"', 'utf8');
  const padded = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const out = Buffer.alloc(12 + 8 + padded.length);
  out.write('glTF', 0, 'ascii');
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(padded.length, 12);
  out.write('JSON', 16, 'ascii');
  padded.copy(out, 20);
  return out;
}

/** Not a glTF file at all (a PNG signature and some text) — uploaded with a .glb name. */
export function notGlb(): Uint8Array {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('not a model'),
  ]);
}
