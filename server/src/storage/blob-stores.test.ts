import { MongoClient, MongoError, MongoServerSelectionError } from 'mongodb';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOB_KINDS, createBlobStores } from './blob-stores.ts';
import { openEmbeddedStorage } from './embedded/index.ts';
import { mongoStorageOf } from './mongodb/index.ts';
import type { Storage } from './types.ts';

/**
 * Which store each kind of user file gets (SPEC.md M-8). No MongoDB server runs here: the driver
 * connects only on the first operation, so a client pointed at a port where nothing listens
 * shows that a write goes to MongoDB (it fails selecting a server) rather than to DATA_DIR.
 */
let dataDir: string;
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of opened.splice(0)) await resource.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const newDataDir = () => (dataDir = mkdtempSync(join(tmpdir(), 'alma-blob-stores-')));

describe('createBlobStores (M-8)', () => {
  it('with the embedded database: each kind in its folder under DATA_DIR', async () => {
    newDataDir();
    const storage = openEmbeddedStorage({ file: join(dataDir, 'alma.db') });
    opened.push(storage);
    expect(storage.blobBucket).toBeUndefined();
    const stores = createBlobStores(dataDir, storage);
    for (const kind of BLOB_KINDS) {
      await stores[kind].put('file-1.bin', new Uint8Array([1, 2, 3]));
      expect([...readFileSync(join(dataDir, kind, 'file-1.bin'))]).toEqual([1, 2, 3]);
    }
  });

  it('with MongoDB: each kind in its own GridFS bucket, named as its folder; nothing written to DATA_DIR', async () => {
    newDataDir();
    for (const kind of BLOB_KINDS) {
      // Port 1 on the loopback: nothing listens; fail fast instead of the driver's 30 s. A client
      // per kind: the driver closes a client whose first server selection failed.
      const client = new MongoClient('mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200');
      opened.push(client);
      const storage: Storage = mongoStorageOf(client, client.db('alma_blob_stores'));
      const buckets: string[] = [];
      const stores = createBlobStores(dataDir, {
        blobBucket: (name) => {
          buckets.push(name);
          return storage.blobBucket!(name);
        },
      });
      expect(buckets).toEqual([...BLOB_KINDS]);
      // A read asks MongoDB first; a write goes there, and not to the folder.
      await expect(stores[kind].stat('file-1.bin')).rejects.toThrow(MongoServerSelectionError);
      await expect(stores[kind].put('file-1.bin', new Uint8Array([1]))).rejects.toThrow(MongoError);
      expect(existsSync(join(dataDir, kind))).toBe(false);
    }
  });
});
