import { deflateSync } from 'node:zlib';
import type { ModelFindingReason } from '@alma/protocol';

/**
 * Hostile .glb files (issue 11), built in memory byte by byte — nothing binary is committed or
 * downloaded. Each is small and declares work or memory it does not carry: the checks before
 * processing (SPEC.md AU-10) must refuse every one at once, with the reason named here.
 */

type Json = Record<string, unknown>;

/** A GLB from a JSON object and the BIN chunk's bytes (both padded to 4 bytes as the spec asks). */
export function rawGlb(json: Json, bin?: Uint8Array): Uint8Array {
  const pad = (b: Buffer, fill: number) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4, fill)]);
  const text = pad(Buffer.from(JSON.stringify(json), 'utf8'), 0x20);
  const data = bin ? pad(Buffer.from(bin), 0) : null;
  const total = 12 + 8 + text.length + (data ? 8 + data.length : 0);
  const out = Buffer.alloc(total);
  out.write('glTF', 0, 'ascii');
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(text.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  text.copy(out, 20);
  if (data) {
    const at = 20 + text.length;
    out.writeUInt32LE(data.length, at);
    out.writeUInt32LE(0x004e4942, at + 4);
    data.copy(out, at + 8);
  }
  return new Uint8Array(out);
}

/** One triangle: positions (36 bytes) and UVs (24 bytes) at the start of the BIN chunk. */
function triangle(): { json: Json; bin: Buffer } {
  const bin = Buffer.alloc(60);
  new Float32Array(bin.buffer, bin.byteOffset, 15).set([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1]);
  return {
    bin,
    json: {
      asset: { version: '2.0', generator: 'alma hostile corpus' },
      buffers: [{ byteLength: 60 }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 36 },
        { buffer: 0, byteOffset: 36, byteLength: 24 },
      ],
      accessors: [
        { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
        { bufferView: 1, componentType: 5126, count: 3, type: 'VEC2' },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 } }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
      scene: 0,
    },
  };
}

/** The triangle textured with the given images (appended to the BIN chunk, one texture each). */
function texturedTriangle(images: { bytes: Uint8Array; mimeType: string }[], extra: Json = {}): Uint8Array {
  const { json, bin } = triangle();
  const chunks: Buffer[] = [bin];
  let offset = bin.length;
  const views = [...(json.bufferViews as Json[])];
  const imageDefs = images.map(({ bytes, mimeType }) => {
    const padded = Buffer.concat([Buffer.from(bytes), Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
    views.push({ buffer: 0, byteOffset: offset, byteLength: bytes.length });
    chunks.push(padded);
    offset += padded.length;
    return { bufferView: views.length - 1, mimeType };
  });
  const data = Buffer.concat(chunks);
  return rawGlb(
    {
      ...json,
      buffers: [{ byteLength: data.length }],
      bufferViews: views,
      images: imageDefs,
      textures: imageDefs.map((_, i) => ({ source: i })),
      materials: imageDefs.map((_, i) => ({ pbrMetallicRoughness: { baseColorTexture: { index: i } } })),
      meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, material: 0 }] }],
      ...extra,
    },
    data,
  );
}

/**
 * A real, decodable PNG of the given size: 1-bit greyscale, all black. It compresses ~1000:1, so
 * 16383 × 16383 pixels (a gigabyte once decoded to RGBA) take ~33 KB.
 */
export function blankPng(width: number, height: number): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * height); // filter byte 0 + zero bits per row
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A JPEG whose frame header declares the size (nothing after it: a decoder would fail, late). */
function jpegHeader(width: number, height: number): Uint8Array {
  const sof = [0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  for (let c = 1; c <= 3; c++) sof.push(c, 0x11, 0);
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

/** An extended WebP (VP8X) whose canvas is the given size. */
function webpHeader(width: number, height: number): Uint8Array {
  const out = Buffer.alloc(30);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(22, 4);
  out.write('WEBPVP8X', 8, 'ascii');
  out.writeUInt32LE(10, 16);
  out.writeUIntLE(width - 1, 24, 3);
  out.writeUIntLE(height - 1, 27, 3);
  return new Uint8Array(out);
}

/** A KTX2 header (RGBA8, one level) of the given size, with no level data. */
function ktx2Header(width: number, height: number): Uint8Array {
  const out = Buffer.alloc(80);
  Buffer.from([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]).copy(out, 0);
  out.writeUInt32LE(37, 12); // VK_FORMAT_R8G8B8A8_UNORM
  out.writeUInt32LE(1, 16);
  out.writeUInt32LE(width, 20);
  out.writeUInt32LE(height, 24);
  out.writeUInt32LE(1, 36); // faces
  out.writeUInt32LE(1, 40); // levels
  return new Uint8Array(out);
}

/** The 516-byte bomb of issue 11: an accessor declaring 2³⁰ VEC3s with a one-entry sparse block. */
export function sparseBomb(): Uint8Array {
  return rawGlb(
    {
      asset: { version: '2.0' },
      buffers: [{ byteLength: 16 }],
      bufferViews: [
        { buffer: 0, byteOffset: 0, byteLength: 4 },
        { buffer: 0, byteOffset: 4, byteLength: 12 },
      ],
      accessors: [
        {
          componentType: 5126,
          count: 2 ** 30,
          type: 'VEC3',
          min: [0, 0, 0],
          max: [1, 1, 1],
          sparse: { count: 1, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 1 } },
        },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      nodes: [{ mesh: 0 }],
      scenes: [{ nodes: [0] }],
      scene: 0,
    },
    new Uint8Array(16),
  );
}

function patched(patch: (json: Json) => void): Uint8Array {
  const { json, bin } = triangle();
  patch(json);
  return rawGlb(json, bin);
}

const first = (json: Json, key: string) => (json[key] as Json[])[0] as Json;

/** One hostile file per reason, with the finding the checks must name first. */
export const HOSTILE_MODELS: Record<string, { build: () => Uint8Array; reason: ModelFindingReason }> = {
  'the sparse bomb (2³⁰ elements, 516 bytes)': { build: sparseBomb, reason: 'accessor_too_large' },
  'an accessor reading past its buffer view': {
    build: () => patched((j) => void (first(j, 'accessors').count = 1_000_000)),
    reason: 'data_out_of_bounds',
  },
  'a buffer view past its buffer': {
    build: () => patched((j) => void (first(j, 'bufferViews').byteLength = 1 << 30)),
    reason: 'data_out_of_bounds',
  },
  'a buffer longer than the BIN chunk': {
    build: () => patched((j) => void (first(j, 'buffers').byteLength = 100 << 20)),
    reason: 'data_out_of_bounds',
  },
  'a sparse block larger than its accessor': {
    build: () =>
      patched((j) => {
        first(j, 'accessors').sparse = {
          count: 4,
          indices: { bufferView: 1, componentType: 5121 },
          values: { bufferView: 0 },
        };
      }),
    reason: 'sparse_invalid',
  },
  'a million and a half vertices declared with no data': {
    build: () =>
      patched((j) => {
        const position = first(j, 'accessors');
        delete position.bufferView;
        position.count = 1_500_000;
      }),
    reason: 'too_many_vertices',
  },
  'a required extension the client cannot load': {
    build: () =>
      patched((j) => {
        j.extensionsUsed = ['KHR_unknown_compression'];
        j.extensionsRequired = ['KHR_unknown_compression'];
      }),
    reason: 'extension_unsupported',
  },
  'a buffer in an external file': {
    build: () => patched((j) => void (first(j, 'buffers').uri = 'file:///etc/passwd')),
    reason: 'external_reference',
  },
  'a node hierarchy that loops': {
    build: () =>
      patched((j) => {
        j.nodes = [{ mesh: 0, children: [1] }, { children: [0] }];
      }),
    reason: 'node_cycle',
  },
  'a node hierarchy 300 levels deep': {
    build: () =>
      patched((j) => {
        j.nodes = Array.from({ length: 300 }, (_, i) => (i < 299 ? { children: [i + 1] } : { mesh: 0 }));
      }),
    reason: 'hierarchy_too_deep',
  },
  'a JSON chunk that is not JSON': {
    build: () => {
      const glb = patched(() => undefined);
      glb[20] = 0x7b + 1; // `|` where `{` was
      return glb;
    },
    reason: 'json_invalid',
  },
  'a PNG of 16383 × 16383 pixels in 33 KB': {
    build: () => texturedTriangle([{ bytes: blankPng(16383, 16383), mimeType: 'image/png' }]),
    reason: 'texture_too_large',
  },
  'a JPEG declaring 60000 × 60000 pixels': {
    build: () => texturedTriangle([{ bytes: jpegHeader(60000, 60000), mimeType: 'image/jpeg' }]),
    reason: 'texture_too_large',
  },
  'a WebP declaring 16383 × 16383 pixels': {
    build: () =>
      texturedTriangle([{ bytes: webpHeader(16383, 16383), mimeType: 'image/webp' }], {
        extensionsUsed: ['EXT_texture_webp'],
      }),
    reason: 'texture_too_large',
  },
  'a KTX2 texture declaring 16384 × 16384 pixels': {
    build: () =>
      texturedTriangle([{ bytes: ktx2Header(16384, 16384), mimeType: 'image/ktx2' }], {
        extensionsUsed: ['KHR_texture_basisu'],
      }),
    reason: 'texture_too_large',
  },
  'five 4096² textures (over the total)': {
    build: () => {
      const png = blankPng(4096, 4096);
      return texturedTriangle(Array.from({ length: 5 }, () => ({ bytes: png, mimeType: 'image/png' })));
    },
    reason: 'textures_too_large_total',
  },
  'a GIF image': {
    build: () =>
      texturedTriangle([{ bytes: Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), mimeType: 'image/gif' }]),
    reason: 'image_format_unsupported',
  },
};

/**
 * A valid model whose JSON holds 16,000 named nodes (3 MB): within every declared budget, but its
 * processing needs a V8 heap of more than 48 MB — the worker's memory limit is tested with it.
 */
export function manyNamedNodes(): Uint8Array {
  const { json, bin } = triangle();
  const nodes = Array.from({ length: 16_000 }, (_, i) => ({
    name: `node-${i}-${'x'.repeat(150)}`,
    translation: [i, 0, 0],
  }));
  return rawGlb({ ...json, nodes: [{ mesh: 0, children: nodes.map((_, i) => i + 1) }, ...nodes] }, bin);
}

/**
 * Not hostile, only wrong: a triangle whose indices name a vertex that does not exist. It passes
 * the checks before processing and the Khronos validator refuses it (ACCESSOR_INDEX_OOB).
 */
export function outOfRangeIndices(): Uint8Array {
  const { json, bin } = triangle();
  const indices = Buffer.from(new Uint16Array([0, 1, 7, 0]).buffer);
  return rawGlb(
    {
      ...json,
      buffers: [{ byteLength: bin.length + indices.length }],
      bufferViews: [
        ...(json.bufferViews as Json[]),
        { buffer: 0, byteOffset: bin.length, byteLength: 6, target: 34963 },
      ],
      accessors: [
        ...(json.accessors as Json[]),
        { bufferView: 2, componentType: 5123, count: 3, type: 'SCALAR' },
      ],
      meshes: [{ primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2 }] }],
    },
    Buffer.concat([bin, indices]),
  );
}
