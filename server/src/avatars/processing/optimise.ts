import type { Document } from '@gltf-transform/core';
import { dedup, meshopt, prune, textureCompress } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';

/** Textures larger than this (either side) are scaled down, keeping their format. */
export const MAX_TEXTURE_SIZE = 2048;

/**
 * Make the model light to download and render: drop what nothing uses, merge duplicates, resize
 * oversized textures, then quantise and compress geometry with meshopt (ENGINES.md: meshopt keeps
 * morph targets compressed, draco does not). Morph names (`extras.targetNames`) survive.
 */
export async function optimiseDocument(doc: Document, signal?: AbortSignal): Promise<void> {
  await MeshoptEncoder.ready;
  signal?.throwIfAborted();
  await doc.transform(prune({ keepAttributes: false }), dedup());
  signal?.throwIfAborted();
  await doc.transform(textureCompress({ encoder: sharp, resize: [MAX_TEXTURE_SIZE, MAX_TEXTURE_SIZE] }));
  signal?.throwIfAborted();
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
}
