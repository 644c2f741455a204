import {
  AVATAR_IMAGE_TYPES,
  AVATAR_MODEL_LIMITS as LIMITS,
  GLTF_EXTENSIONS_CONVERTED,
  GLTF_EXTENSIONS_SUPPORTED,
  type ModelFinding,
} from '@alma/protocol';
import type { ByteSource } from './byte-source.ts';
import { readGlbContainer } from './glb-container.ts';
import { readImageHeader, type ImageReader } from './image-header.ts';

/**
 * The checks before any processing (SPEC.md AU-10): what the GLB's JSON declares is held against
 * the bytes the file really has and against the work budgets, and every image's size is read from
 * its header. The Khronos validator and glTF-Transform trust declared counts (an accessor of 2³⁰
 * elements in a 516-byte file keeps the validator busy for minutes; a 16383² PNG decodes to 1 GB),
 * so nothing reaches them before these pass. Reads only the JSON chunk and a few bytes per image;
 * runs in the upload request and again at the start of every job.
 */

export interface PreflightSummary {
  vertices: number;
  components: number;
  texturePixels: number;
  images: { index: number; type: string; width: number; height: number }[];
  /** Extensions used but neither supported nor converted: processing drops them. */
  extensionsDropped: string[];
}

export type PreflightResult =
  { ok: true; summary: PreflightSummary } | { ok: false; findings: ModelFinding[] };

/** Findings kept per refusal: the first names the error code, the rest help the user. */
const MAX_FINDINGS = 5;
/** An accessor with no data behind it (zeros, sparse or Draco-decoded) may declare this many elements. */
export const MAX_ELEMENTS_WITHOUT_DATA = 4 * LIMITS.maxVertices;

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};
const KNOWN_EXTENSIONS = new Set<string>([...GLTF_EXTENSIONS_SUPPORTED, ...GLTF_EXTENSIONS_CONVERTED]);

// The JSON is untrusted: read every field through these, defaulting what is missing or mistyped.
type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const count = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
const index = (v: unknown): number | null =>
  Number.isInteger(v) && (v as number) >= 0 ? (v as number) : null;

export async function preflightGlb(source: ByteSource): Promise<PreflightResult> {
  const container = await readGlbContainer(source);
  if (!container.ok) return { ok: false, findings: [container.finding] };
  const gltf = obj(container.glb.json);
  const bin = container.glb.bin;
  const findings: ModelFinding[] = [];
  const find = (f: ModelFinding) => void (findings.length < MAX_FINDINGS && findings.push(f));

  // Extensions: a required one the client cannot load refuses the model.
  const required = list(gltf.extensionsRequired).filter((e): e is string => typeof e === 'string');
  const unsupported = required.filter((e) => !KNOWN_EXTENSIONS.has(e));
  if (unsupported.length)
    find({ reason: 'extension_unsupported', params: { names: unsupported.join(', ') } });
  const extensionsDropped = list(gltf.extensionsUsed).filter(
    (e): e is string => typeof e === 'string' && !KNOWN_EXTENSIONS.has(e) && !required.includes(e),
  );

  // Buffers: the GLB's BIN, data: URIs (bounded by the JSON size) or meshopt fallbacks (no data).
  const buffers = list(gltf.buffers).map(obj);
  const bufferData: (Uint8Array | 'bin' | 'none' | 'fallback')[] = [];
  buffers.forEach((buffer, i) => {
    const uri = buffer.uri;
    let data: (typeof bufferData)[number] = 'none';
    let available = 0;
    if (typeof uri === 'string') {
      const decoded = decodeDataUri(uri);
      if (!decoded) find({ reason: 'external_reference', params: { kind: 'buffer', index: i } });
      else [data, available] = [decoded, decoded.byteLength];
    } else if (i === 0 && bin) [data, available] = ['bin', bin.length];
    else if (obj(obj(buffer.extensions).EXT_meshopt_compression).fallback === true)
      [data, available] = ['fallback', Number.POSITIVE_INFINITY];
    bufferData.push(data);
    if (count(buffer.byteLength) > available)
      find({
        reason: 'data_out_of_bounds',
        params: { what: 'buffer', index: i, needed: count(buffer.byteLength), available },
      });
  });

  // Buffer views within their buffers; meshopt-compressed views decode within their declared size.
  const views = list(gltf.bufferViews).map(obj);
  views.forEach((view, i) => {
    const buffer = buffers[index(view.buffer) ?? -1];
    const needed = count(view.byteOffset) + count(view.byteLength);
    if (buffer && needed > count(buffer.byteLength))
      find({
        reason: 'data_out_of_bounds',
        params: { what: 'bufferView', index: i, needed, available: count(buffer.byteLength) },
      });
    const meshopt = obj(obj(view.extensions).EXT_meshopt_compression);
    if (Object.keys(meshopt).length) {
      const decoded = count(meshopt.count) * count(meshopt.byteStride);
      const source = buffers[index(meshopt.buffer) ?? -1];
      const compressed = count(meshopt.byteOffset) + count(meshopt.byteLength);
      if (decoded > count(view.byteLength))
        find({
          reason: 'data_out_of_bounds',
          params: { what: 'bufferView', index: i, needed: decoded, available: count(view.byteLength) },
        });
      if (source && compressed > count(source.byteLength))
        find({
          reason: 'data_out_of_bounds',
          params: { what: 'bufferView', index: i, needed: compressed, available: count(source.byteLength) },
        });
    }
  });

  // Accessors: count × element size within the view; sparse blocks within theirs; a budget for
  // those with no data behind them and for all of them together.
  let components = 0;
  list(gltf.accessors)
    .map(obj)
    .forEach((accessor, i) => {
      const n = count(accessor.count);
      const perElement = TYPE_COMPONENTS[String(accessor.type)] ?? 1;
      const elementBytes = perElement * (COMPONENT_BYTES[Number(accessor.componentType)] ?? 1);
      components += n * perElement;
      const viewIndex = index(accessor.bufferView);
      if (viewIndex === null) {
        if (n > MAX_ELEMENTS_WITHOUT_DATA)
          find({
            reason: 'accessor_too_large',
            params: { index: i, count: n, max: MAX_ELEMENTS_WITHOUT_DATA },
          });
      } else {
        const view = views[viewIndex];
        if (view && n > 0) {
          const stride = count(view.byteStride) || elementBytes;
          const needed = count(accessor.byteOffset) + stride * (n - 1) + elementBytes;
          if (needed > count(view.byteLength))
            find({
              reason: 'data_out_of_bounds',
              params: { what: 'accessor', index: i, needed, available: count(view.byteLength) },
            });
        }
      }
      if (accessor.sparse !== undefined) {
        const sparse = obj(accessor.sparse);
        const m = count(sparse.count);
        if (m === 0 || m > n) return find({ reason: 'sparse_invalid', params: { index: i } });
        const indices = obj(sparse.indices);
        const values = obj(sparse.values);
        for (const [part, bytes] of [
          [indices, m * (COMPONENT_BYTES[Number(indices.componentType)] ?? 1)],
          [values, m * elementBytes],
        ] as const) {
          const view = views[index(part.bufferView) ?? -1];
          const needed = count(part.byteOffset) + bytes;
          if (!view) find({ reason: 'sparse_invalid', params: { index: i } });
          else if (needed > count(view.byteLength))
            find({
              reason: 'data_out_of_bounds',
              params: { what: 'sparse', index: i, needed, available: count(view.byteLength) },
            });
        }
      }
    });
  if (components > LIMITS.maxAccessorComponents)
    find({ reason: 'too_much_data', params: { count: components } });

  // Vertices: each primitive's POSITION once (primitives sharing an accessor count it once).
  const accessors = list(gltf.accessors).map(obj);
  const positions = new Set<number>();
  for (const mesh of list(gltf.meshes))
    for (const primitive of list(obj(mesh).primitives)) {
      const position = index(obj(obj(primitive).attributes).POSITION);
      if (position !== null) positions.add(position);
    }
  const vertices = [...positions].reduce((sum, a) => sum + count(accessors[a]?.count), 0);
  if (vertices > LIMITS.maxVertices) find({ reason: 'too_many_vertices', params: { count: vertices } });

  checkHierarchy(list(gltf.nodes), find);

  // Images: the size from the header, never from a decode.
  const images: PreflightSummary['images'] = [];
  let texturePixels = 0;
  const imageList = list(gltf.images).map(obj);
  for (const [i, image] of imageList.entries()) {
    const reader = imageReader(image, views, bufferData, bin, source);
    if (reader === 'external') {
      find({ reason: 'external_reference', params: { kind: 'image', index: i } });
      continue;
    }
    if (!reader) continue; // no data at all: the validator reports it
    const header = await readImageHeader(reader.read, reader.length);
    if (!header) {
      const declared = typeof image.mimeType === 'string' ? image.mimeType : 'unknown';
      const known = (AVATAR_IMAGE_TYPES as readonly string[]).includes(declared);
      find(
        known
          ? { reason: 'image_unreadable', params: { index: i } }
          : { reason: 'image_format_unsupported', params: { index: i, mimeType: declared } },
      );
      continue;
    }
    images.push({ index: i, type: header.type, width: header.width, height: header.height });
    texturePixels += header.pixels;
    if (header.pixels > LIMITS.maxTexturePixels)
      find({ reason: 'texture_too_large', params: { index: i, width: header.width, height: header.height } });
  }
  if (texturePixels > LIMITS.maxTotalTexturePixels)
    find({ reason: 'textures_too_large_total', params: { pixels: texturePixels } });

  if (findings.length) return { ok: false, findings };
  return { ok: true, summary: { vertices, components, texturePixels, images, extensionsDropped } };
}

/** Node count, cycles and depth, walked without recursion (a hostile file can nest deeply). */
function checkHierarchy(nodes: unknown[], find: (f: ModelFinding) => void): void {
  if (nodes.length > LIMITS.maxNodes)
    return find({ reason: 'too_many_nodes', params: { count: nodes.length } });
  const children = nodes.map((n) =>
    list(obj(n).children)
      .map(index)
      .filter((c): c is number => c !== null),
  );
  const state = new Uint8Array(nodes.length); // 0 unseen, 1 on the current path, 2 done
  for (let root = 0; root < nodes.length; root++) {
    if (state[root]) continue;
    const stack: [node: number, next: number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1] as [number, number];
      const child = children[top[0]]?.[top[1]];
      if (child === undefined) {
        state[top[0]] = 2;
        stack.pop();
        continue;
      }
      top[1] += 1;
      if (child >= nodes.length) continue; // a dangling index: the validator reports it
      if (state[child] === 1) return find({ reason: 'node_cycle', params: { index: child } });
      if (state[child] === 2) continue;
      if (stack.length >= LIMITS.maxNodeDepth)
        return find({ reason: 'hierarchy_too_deep', params: { depth: LIMITS.maxNodeDepth } });
      state[child] = 1;
      stack.push([child, 0]);
    }
  }
}

/** Where an image's bytes are: a view into the BIN chunk or a data: URI buffer, or a data: URI. */
function imageReader(
  image: Json,
  views: Json[],
  bufferData: (Uint8Array | 'bin' | 'none' | 'fallback')[],
  bin: { offset: number; length: number } | null,
  source: ByteSource,
): { read: ImageReader; length: number } | 'external' | null {
  if (typeof image.uri === 'string') {
    const bytes = decodeDataUri(image.uri);
    return bytes ? fromBytes(bytes) : 'external';
  }
  const view = views[index(image.bufferView) ?? -1];
  if (!view) return null;
  const data = bufferData[index(view.buffer) ?? -1];
  const start = count(view.byteOffset);
  const length = count(view.byteLength);
  if (data instanceof Uint8Array) return fromBytes(data.subarray(start, start + length));
  if (data !== 'bin' || !bin) return null;
  const end = Math.min(start + length, bin.length);
  return {
    length: Math.max(0, end - start),
    read: (offset, n) =>
      source.read(bin.offset + start + offset, Math.max(0, Math.min(n, end - start - offset))),
  };
}

const fromBytes = (bytes: Uint8Array) => ({
  length: bytes.byteLength,
  read: async (offset: number, n: number) => bytes.subarray(offset, offset + n),
});

/** The bytes of a base64 `data:` URI; null for anything else (external files are not allowed). */
function decodeDataUri(uri: string): Uint8Array | null {
  const match = /^data:[^,]*;base64,/i.exec(uri);
  if (!match) return null;
  return new Uint8Array(Buffer.from(uri.slice(match[0].length), 'base64'));
}
