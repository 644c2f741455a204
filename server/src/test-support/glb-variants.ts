import { Logger, NodeIO, type Document, type Node as GltfNode } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTTextureWebP, KHRTextureBasisu } from '@gltf-transform/extensions';
import { draco, meshopt } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';

/**
 * The ways real exports differ, applied to a test model's glTF-Transform document (glb-models.ts):
 * textures in each format the client loads (PNG, JPEG, WebP, KTX2/Basis), geometry already
 * compressed with meshopt or Draco, an embedded animation clip, and skin weights that do not add
 * up to 1 (the validator's ACCESSOR_WEIGHTS_NON_NORMALIZED, a common Blender export mistake).
 */

export type TextureFormat = 'png' | 'jpeg' | 'webp' | 'ktx2';

export interface TextureOptions {
  size: number;
  format?: TextureFormat;
  /** `checker`: large flat blocks (compresses well); `noise`: photo-like detail. */
  pattern?: 'checker' | 'noise';
  /** JPEG/WebP quality of the texture as exported (a low one re-encodes larger). */
  quality?: number;
}

/** Base-colour pixels, RGB, of the given pattern: warm skin tones, never one flat colour. */
async function pixels(size: number, pattern: 'checker' | 'noise'): Promise<Buffer> {
  if (pattern === 'checker') {
    // A blocky checker, scaled up: not a solid colour (prune would fold that into a factor).
    const tile = Buffer.alloc(16 * 16 * 3);
    for (let i = 0; i < 16 * 16; i++)
      tile.set((i + Math.floor(i / 16)) % 2 ? [160, 82, 45] : [240, 200, 160], i * 3);
    return sharp(tile, { raw: { width: 16, height: 16, channels: 3 } })
      .resize(size, size, { kernel: 'nearest' })
      .raw()
      .toBuffer();
  }
  const out = Buffer.alloc(size * size * 3);
  let seed = 12345;
  for (let i = 0; i < size * size; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const grain = (seed >> 16) % 48;
    out.set([200 + (grain >> 2), 150 + (grain >> 1), 120 + grain], i * 3);
  }
  return out;
}

/** The image file and its MIME type, encoded as an exporter would. */
export async function textureImage(
  options: TextureOptions,
): Promise<{ bytes: Uint8Array; mimeType: string }> {
  const { size, format = 'png', pattern = 'checker', quality = 80 } = options;
  const image = sharp(await pixels(size, pattern), { raw: { width: size, height: size, channels: 3 } });
  switch (format) {
    case 'png':
      return { bytes: new Uint8Array(await image.png().toBuffer()), mimeType: 'image/png' };
    case 'jpeg':
      return { bytes: new Uint8Array(await image.jpeg({ quality }).toBuffer()), mimeType: 'image/jpeg' };
    case 'webp':
      return { bytes: new Uint8Array(await image.webp({ quality }).toBuffer()), mimeType: 'image/webp' };
    case 'ktx2': {
      // Basis Universal (ETC1S), as KHR_texture_basisu requires, with the encoder the package ships.
      const { encodeToKTX2 } = await import('ktx2-encoder');
      const png = await image.png().toBuffer();
      // The Basis encoder prints every slice through console.log; tests' output stays readable.
      const log = console.log;
      console.log = () => undefined;
      try {
        const bytes = await encodeToKTX2(new Uint8Array(png), {
          isUASTC: false,
          generateMipmap: true,
          imageDecoder: async (input: Uint8Array) => {
            const { data, info } = await sharp(input)
              .ensureAlpha()
              .raw()
              .toBuffer({ resolveWithObject: true });
            return { data: new Uint8Array(data), width: info.width, height: info.height };
          },
        });
        return { bytes, mimeType: 'image/ktx2' };
      } finally {
        console.log = log;
      }
    }
  }
}

/** Declares the extension KTX2 or WebP textures need, required, as exporters do. */
export function requireTextureExtensions(doc: Document): void {
  const types = new Set(
    doc
      .getRoot()
      .listTextures()
      .map((t) => t.getMimeType()),
  );
  if (types.has('image/ktx2')) doc.createExtension(KHRTextureBasisu).setRequired(true);
  if (types.has('image/webp')) doc.createExtension(EXTTextureWebP).setRequired(true);
}

/** A two-key rotation clip on `node` (Mixamo and Ready Player Me exports carry such clips). */
export function addAnimation(doc: Document, node: GltfNode): void {
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const times = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1]))
    .setBuffer(buffer);
  const turn = Math.sin(Math.PI / 16);
  const values = doc
    .createAccessor()
    .setType('VEC4')
    .setArray(new Float32Array([0, 0, 0, 1, 0, turn, 0, Math.cos(Math.PI / 16)]))
    .setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(values).setInterpolation('LINEAR');
  const channel = doc
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath('rotation')
    .setSampler(sampler);
  doc.createAnimation('Idle').addSampler(sampler).addChannel(channel);
}

/** Writes the document, compressing its geometry first when asked. */
export async function writeModel(doc: Document, compression?: 'meshopt' | 'draco'): Promise<Uint8Array> {
  const [encoder, decoder] = await Promise.all([
    draco3d.createEncoderModule(),
    draco3d.createDecoderModule(),
    MeshoptEncoder.ready,
  ]);
  doc.setLogger(new Logger(Logger.Verbosity.WARN));
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': encoder,
    'draco3d.decoder': decoder,
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
  });
  if (compression === 'meshopt') await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'high' }));
  if (compression === 'draco') await doc.transform(draco({ method: 'edgebreaker' }));
  return io.writeBinary(doc);
}
