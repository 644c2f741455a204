import { AVATAR_MODEL_LIMITS, matchBones } from '@alma/protocol';
import type { Accessor, Document, Material, Node, Primitive, Texture } from '@gltf-transform/core';
import sharp from 'sharp';
import { Matrix4, Vector3 } from 'three';

/**
 * A model as the portrait renderer sees it (portrait.ts): every triangle in world space in the
 * rest pose (skins and default morph weights applied), each surface with its material's colour,
 * base-colour texture and alpha mode, plus what framing needs — the bounds, the head (the Head
 * bone of `matchBones`, the one bone judge of server and client) and which way the figure faces.
 */

/** An image decoded to RGBA (sRGB bytes). */
export interface DecodedImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface SurfaceMaterial {
  /** Linear RGBA base colour factor. */
  base: [number, number, number, number];
  texture: DecodedImage | null;
  /** Linear RGB emissive colour. */
  emissive: [number, number, number];
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff: number;
}

export interface Surface {
  /** World xyz per vertex. */
  positions: Float32Array;
  /** World normals per vertex (unit length), or null: flat shading from the triangle. */
  normals: Float32Array | null;
  /** The base-colour texture's coordinates, or null. */
  uvs: Float32Array | null;
  /** COLOR_0 as linear RGBA, or null. */
  colours: Float32Array | null;
  indices: Uint32Array;
  material: SurfaceMaterial;
}

export interface PortraitScene {
  surfaces: Surface[];
  min: Vector3;
  max: Vector3;
  /** World position of the Head bone, or null. */
  head: Vector3 | null;
  /** Highest world Y of what moves with the head (hair, hat), or null. */
  headTop: number | null;
  /** True when the figure faces −Z (its left arm on −X): the camera goes round to its front. */
  facesMinusZ: boolean;
}

/** Textures are sampled at most this size (either side): a portrait is small. */
const TEXTURE_SIDE = 512;
const TRIANGLES = 4;

/** The base-colour image decoded, scaled down; null for what sharp cannot read (KTX2). */
async function decodeTexture(texture: Texture | null): Promise<DecodedImage | null> {
  const image = texture?.getImage();
  if (!texture || !image || texture.getMimeType() === 'image/ktx2') return null;
  try {
    const { data, info } = await sharp(image, { limitInputPixels: AVATAR_MODEL_LIMITS.maxTexturePixels })
      .resize(TEXTURE_SIDE, TEXTURE_SIDE, { fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data) };
  } catch {
    return null; // an image nothing can decode: the factor alone
  }
}

/** glTF's default material: opaque light grey. */
const DEFAULT_MATERIAL: SurfaceMaterial = {
  base: [0.8, 0.8, 0.8, 1],
  texture: null,
  emissive: [0, 0, 0],
  alphaMode: 'OPAQUE',
  alphaCutoff: 0.5,
};

async function materialOf(
  material: Material | null,
  cache: Map<Material, Promise<SurfaceMaterial>>,
): Promise<SurfaceMaterial> {
  if (!material) return DEFAULT_MATERIAL;
  let pending = cache.get(material);
  if (!pending) {
    pending = decodeTexture(material.getBaseColorTexture()).then((texture) => {
      const [r = 1, g = 1, b = 1, a = 1] = material.getBaseColorFactor();
      const [er = 0, eg = 0, eb = 0] = material.getEmissiveFactor();
      return {
        base: [r, g, b, a] as SurfaceMaterial['base'],
        texture,
        emissive: [er, eg, eb] as SurfaceMaterial['emissive'],
        alphaMode: material.getAlphaMode(),
        alphaCutoff: material.getAlphaCutoff(),
      };
    });
    cache.set(material, pending);
  }
  return pending;
}

const matrixOf = (node: Node) => new Matrix4().fromArray(node.getWorldMatrix());

function read(accessor: Accessor | null, size: number): Float32Array | null {
  if (!accessor) return null;
  const out = new Float32Array(accessor.getCount() * size);
  const element: number[] = [];
  for (let i = 0; i < accessor.getCount(); i++) {
    accessor.getElement(i, element);
    for (let k = 0; k < size; k++) out[i * size + k] = element[k] ?? (k === 3 ? 1 : 0);
  }
  return out;
}

/** The scene's nodes, depth first (the default scene, else the first). */
function sceneNodes(doc: Document): { node: Node; depth: number }[] {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const tops = scene ? scene.listChildren() : root.listNodes().filter((n) => !n.getParentNode());
  const out: { node: Node; depth: number }[] = [];
  const visit = (node: Node, depth: number) => {
    out.push({ node, depth });
    for (const child of node.listChildren()) visit(child, depth + 1);
  };
  for (const top of tops) visit(top, 0);
  return out;
}

function subtreeOf(node: Node): Set<Node> {
  const set = new Set<Node>();
  const visit = (n: Node) => {
    set.add(n);
    n.listChildren().forEach(visit);
  };
  visit(node);
  return set;
}

export async function portraitScene(doc: Document): Promise<PortraitScene> {
  const nodes = sceneNodes(doc);
  const bones = matchBones(nodes.map(({ node, depth }) => ({ name: node.getName(), depth })));
  const named = (canonical: string) => {
    const name = bones.get(canonical);
    return name === undefined ? null : (nodes.find(({ node }) => node.getName() === name)?.node ?? null);
  };
  const headNode = named('Head');
  const underHead = headNode ? subtreeOf(headNode) : new Set<Node>();
  const cache = new Map<Material, Promise<SurfaceMaterial>>();
  const surfaces: Surface[] = [];
  const min = new Vector3(Infinity, Infinity, Infinity);
  const max = new Vector3(-Infinity, -Infinity, -Infinity);
  let headTop = -Infinity;
  const p = new Vector3();
  const n = new Vector3();
  const sum = new Vector3();
  const nsum = new Vector3();

  for (const { node } of nodes) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const skin = node.getSkin();
    const joints = skin?.listJoints() ?? [];
    const ibm = read(skin?.getInverseBindMatrices() ?? null, 16);
    const jointMatrices = joints.map((joint, j) => {
      const m = matrixOf(joint);
      return ibm ? m.multiply(new Matrix4().fromArray(ibm, j * 16)) : m;
    });
    const onHead = joints.map((joint) => underHead.has(joint));
    const nodeMatrix = matrixOf(node);
    const nodeOnHead = underHead.has(node);
    const weights = mesh.getWeights();
    for (const primitive of mesh.listPrimitives()) {
      if (primitive.getMode() !== TRIANGLES) continue;
      const positions = read(primitive.getAttribute('POSITION'), 3);
      if (!positions) continue;
      const count = positions.length / 3;
      const normals = read(primitive.getAttribute('NORMAL'), 3);
      morph(primitive, weights, positions, normals);
      const material = primitive.getMaterial();
      const texCoord = material?.getBaseColorTextureInfo()?.getTexCoord() ?? 0;
      const uvs = read(primitive.getAttribute(`TEXCOORD_${texCoord}`), 2);
      const colours = read(primitive.getAttribute('COLOR_0'), 4);
      const jointIds = skin ? read(primitive.getAttribute('JOINTS_0'), 4) : null;
      const jointWeights = skin ? read(primitive.getAttribute('WEIGHTS_0'), 4) : null;
      const indexAccessor = primitive.getIndices();
      const indices = indexAccessor
        ? Uint32Array.from({ length: indexAccessor.getCount() }, (_, i) => indexAccessor.getScalar(i))
        : Uint32Array.from({ length: count }, (_, i) => i);

      for (let v = 0; v < count; v++) {
        p.fromArray(positions, v * 3);
        if (normals) n.fromArray(normals, v * 3);
        let strongest = -1;
        if (jointIds && jointWeights) {
          sum.set(0, 0, 0);
          nsum.set(0, 0, 0);
          let total = 0;
          let best = 0;
          for (let k = 0; k < 4; k++) {
            const w = jointWeights[v * 4 + k] ?? 0;
            const m = jointMatrices[jointIds[v * 4 + k] ?? 0];
            if (w <= 0 || !m) continue;
            sum.addScaledVector(p.clone().applyMatrix4(m), w);
            if (normals) nsum.addScaledVector(n.clone().transformDirection(m), w);
            total += w;
            if (w > best) {
              best = w;
              strongest = jointIds[v * 4 + k] ?? -1;
            }
          }
          if (total > 0) {
            p.copy(sum).divideScalar(total);
            n.copy(nsum).normalize();
          } else {
            p.applyMatrix4(nodeMatrix);
            n.transformDirection(nodeMatrix);
          }
        } else {
          p.applyMatrix4(nodeMatrix);
          n.transformDirection(nodeMatrix);
        }
        if (!Number.isFinite(p.x + p.y + p.z)) p.set(0, 0, 0);
        p.toArray(positions, v * 3);
        if (normals) n.toArray(normals, v * 3);
        min.min(p);
        max.max(p);
        if (nodeOnHead || (strongest >= 0 && onHead[strongest])) headTop = Math.max(headTop, p.y);
      }
      if (colours)
        for (let i = 0; i < colours.length; i++) colours[i] = Math.min(1, Math.max(0, colours[i] ?? 1));
      surfaces.push({
        positions,
        normals,
        uvs: material?.getBaseColorTexture() ? uvs : null,
        colours,
        indices,
        material: await materialOf(material, cache),
      });
    }
  }

  const left = named('LeftArm') ?? named('LeftShoulder') ?? named('LeftHand');
  const right = named('RightArm') ?? named('RightShoulder') ?? named('RightHand');
  const x = (node: Node) => new Vector3().setFromMatrixPosition(matrixOf(node)).x;
  return {
    surfaces,
    min,
    max,
    head: headNode ? new Vector3().setFromMatrixPosition(matrixOf(headNode)) : null,
    headTop: Number.isFinite(headTop) ? headTop : null,
    // Every humanoid rig: the figure's left arm is on +X when it faces +Z.
    facesMinusZ: left !== null && right !== null && x(left) < x(right) - 1e-6,
  };
}

/** Adds the mesh's default morph weights to positions and normals, in place. */
function morph(
  primitive: Primitive,
  weights: number[],
  positions: Float32Array,
  normals: Float32Array | null,
): void {
  primitive.listTargets().forEach((target, t) => {
    const w = weights[t] ?? 0;
    if (!w) return;
    const dp = read(target.getAttribute('POSITION'), 3);
    const dn = normals ? read(target.getAttribute('NORMAL'), 3) : null;
    if (dp) for (let i = 0; i < positions.length; i++) positions[i]! += w * (dp[i] ?? 0);
    if (dn && normals) for (let i = 0; i < normals.length; i++) normals[i]! += w * (dn[i] ?? 0);
  });
}
