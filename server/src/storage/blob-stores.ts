import { join } from 'node:path';
import { createDiskBlobStore, createLayeredBlobStore, type BlobStore } from './blobs.ts';
import type { Storage } from './types.ts';

/**
 * The kinds of file the server keeps for its users, each its own store (SPEC.md M-8): reply
 * audio and voice notes (S-4, V-4), custom voice samples (VU-5), custom avatars' uploads, models
 * and portraits (AU-2). Each is also the name of its folder under DATA_DIR and of its GridFS
 * bucket.
 */
export const BLOB_KINDS = ['audio', 'custom-voices', 'custom-avatars'] as const;
export type BlobKind = (typeof BLOB_KINDS)[number];
export type BlobStores = Record<BlobKind, BlobStore>;

/**
 * Where each kind of file lives: under DATA_DIR with the embedded database; in the database's
 * own buckets (GridFS) with MongoDB, so replicas need no shared disk — reading through to the
 * folder under DATA_DIR for what was written there before, and deleting from both.
 */
export function createBlobStores(dataDir: string, storage: Pick<Storage, 'blobBucket'>): BlobStores {
  const storeOf = (kind: BlobKind) => {
    const disk = createDiskBlobStore(join(dataDir, kind));
    return storage.blobBucket ? createLayeredBlobStore(storage.blobBucket(kind), disk) : disk;
  };
  return Object.fromEntries(BLOB_KINDS.map((kind) => [kind, storeOf(kind)])) as BlobStores;
}
