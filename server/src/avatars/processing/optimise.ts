import { AVATAR_MODEL_LIMITS } from '@alma/protocol';
import type { Document } from '@gltf-transform/core';
import { compressTexture, dedup, meshopt, prune } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import sharp, { type SharpOptions } from 'sharp';

/** Textures larger than this (either side) are scaled down, keeping their format. */
export const MAX_TEXTURE_SIZE = 2048;
/** Formats sharp re-encodes; KTX2 textures are kept as they came (already GPU-compressed). */
const REENCODED = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** sharp refusing, before decoding, any image over the per-texture pixel budget (AU-10, again). */
const boundedSharp = ((input: Uint8Array, options: SharpOptions = {}) =>
  sharp(input, { ...options, limitInputPixels: AVATAR_MODEL_LIMITS.maxTexturePixels })) as typeof sharp;

/**
 * Make the model light to download and render: drop what nothing uses, merge duplicates, resize
 * oversized textures, then quantise and compress geometry with meshopt (ENGINES.md: meshopt keeps
 * morph targets compressed, draco does not). Morph names (`extras.targetNames`) survive.
 * A texture whose re-encoding (or resize) is no smaller keeps its original bytes (SPEC.md AU-12:
 * processing never makes a model bigger). Textures are done one at a time: one decode in memory.
 */
export async function optimiseDocument(doc: Document, signal?: AbortSignal): Promise<void> {
  await MeshoptEncoder.ready;
  signal?.throwIfAborted();
  await doc.transform(prune({ keepAttributes: false }), dedup());
  for (const texture of doc.getRoot().listTextures()) {
    signal?.throwIfAborted();
    const original = texture.getImage();
    if (!original || !REENCODED.has(texture.getMimeType())) continue;
    const [width = 0, height = 0] = texture.getSize() ?? [];
    const oversized = width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE;
    await compressTexture(texture, {
      encoder: boundedSharp,
      resize: oversized ? [MAX_TEXTURE_SIZE, MAX_TEXTURE_SIZE] : undefined,
    });
    const encoded = texture.getImage();
    if (encoded && encoded.byteLength >= original.byteLength) texture.setImage(original);
  }
  signal?.throwIfAborted();
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
}
