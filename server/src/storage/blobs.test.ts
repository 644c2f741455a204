import { MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskBlobStore, type BlobStore } from './blobs.ts';
import { createGridFsBlobStore } from './mongodb/blobs.ts';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What every blob store does (issue 15: disk by default, GridFS with MONGODB_URI). */
function describeBlobContract(name: string, open: () => Promise<BlobStore>) {
  describe(`BlobStore contract: ${name}`, () => {
    it('stores, describes, reads whole and by inclusive range, and lists a blob', async () => {
      const store = await open();
      const data = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 251));
      await store.put('reply-1.ogg', data);
      const info = await store.stat('reply-1.ogg');
      expect(info).toMatchObject({ name: 'reply-1.ogg', size: 1000 });
      expect(info?.createdAt).toBeInstanceOf(Date);
      expect([...(await bytes(store.read('reply-1.ogg')))]).toEqual([...data]);
      expect([...(await bytes(store.read('reply-1.ogg', { start: 10, end: 19 })))]).toEqual([
        ...data.slice(10, 20),
      ]);
      expect((await store.list()).map((b) => [b.name, b.size])).toEqual([['reply-1.ogg', 1000]]);
    });

    it('writing a name again replaces it; deleting answers whether there was one', async () => {
      const store = await open();
      await store.put('voice-1.wav', new Uint8Array([1, 2, 3]));
      await store.put('voice-1.wav', new Uint8Array([9, 8]));
      expect(await store.stat('voice-1.wav')).toMatchObject({ size: 2 });
      expect([...(await bytes(store.read('voice-1.wav')))]).toEqual([9, 8]);
      expect(await store.list()).toHaveLength(1);
      expect(await store.delete('voice-1.wav')).toBe(true);
      expect(await store.delete('voice-1.wav')).toBe(false);
      expect(await store.stat('voice-1.wav')).toBeNull();
      expect(await store.list()).toEqual([]);
    });

    it('a missing blob reads as an error; a name that could leave the store is refused', async () => {
      const store = await open();
      await expect(bytes(store.read('missing-1.ogg'))).rejects.toThrow();
      await expect(store.put('../escape.ogg', new Uint8Array([1]))).rejects.toThrow(/invalid blob name/);
      await expect(store.stat('a/b.ogg')).rejects.toThrow(/invalid blob name/);
      expect(() => store.read('..')).toThrow(/invalid blob name/);
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
describeBlobContract('disk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'alma-blobs-'));
  dirs.push(dir);
  return createDiskBlobStore(join(dir, 'audio'));
});

const mongoUri = process.env['MONGODB_URI'];
if (!mongoUri) console.info('GridFS blob contract suite skipped: set MONGODB_URI to run it');

describe.skipIf(!mongoUri)('GridFS (needs MONGODB_URI)', () => {
  const client = mongoUri ? new MongoClient(mongoUri) : null;
  const dbName = `alma_blobs_${process.pid}`;
  let buckets = 0;
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });
  describeBlobContract('gridfs', async () => {
    if (!client) throw new Error('MONGODB_URI is not set');
    buckets += 1;
    return createGridFsBlobStore(client.db(dbName), `blobs${buckets}`);
  });
});
