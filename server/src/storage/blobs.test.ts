import { MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDiskBlobStore, createLayeredBlobStore, type BlobStore } from './blobs.ts';
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

    it('takes a stream read to its end, and a name with a role (`<id>.portrait.webp`)', async () => {
      const store = await open();
      await store.put('avatar-1.portrait.webp', Readable.from([Buffer.from('RIFF'), Buffer.from('WEBP')]));
      expect((await bytes(store.read('avatar-1.portrait.webp'))).toString()).toBe('RIFFWEBP');
      expect(await store.list()).toMatchObject([{ name: 'avatar-1.portrait.webp', size: 8 }]);
      await expect(store.put('a..webp', new Uint8Array([1]))).rejects.toThrow(/invalid blob name/);
      await expect(store.put('a.b.c.webp', new Uint8Array([1]))).rejects.toThrow(/invalid blob name/);
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
const diskStore = () => {
  const dir = mkdtempSync(join(tmpdir(), 'alma-blobs-'));
  dirs.push(dir);
  return createDiskBlobStore(join(dir, 'audio'));
};
describeBlobContract('disk', async () => diskStore());

describe('the disk store', () => {
  it('keeps two writes of one name in one millisecond apart: one wins whole, neither fails', async () => {
    const store = diskStore();
    const a = new Uint8Array(200_000).fill(1);
    const b = new Uint8Array(100_000).fill(2);
    vi.useFakeTimers({ toFake: ['Date'] }); // the clock stands still: both in one millisecond
    try {
      await Promise.all([store.put('race-1.ogg', a), store.put('race-1.ogg', b)]);
    } finally {
      vi.useRealTimers();
    }
    const got = await bytes(store.read('race-1.ogg'));
    expect([a.length, b.length]).toContain(got.length);
    expect(new Set(got)).toEqual(new Set([got[0]]));
    expect(await store.list()).toHaveLength(1);
  });

  it('writes again after its folder was removed', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'alma-blobs-'));
    dirs.push(parent);
    const store = createDiskBlobStore(join(parent, 'audio'));
    await store.put('reply-1.ogg', new Uint8Array([1]));
    rmSync(join(parent, 'audio'), { recursive: true });
    await store.put('reply-2.ogg', new Uint8Array([2]));
    expect([...(await bytes(store.read('reply-2.ogg')))]).toEqual([2]);
  });
});
// What `createBlobStores` makes with MongoDB: GridFS over the folder under DATA_DIR (SPEC.md M-8).
describeBlobContract('layered over an older store', async () =>
  createLayeredBlobStore(diskStore(), diskStore()),
);

describe('a layered store keeps what the older store holds (M-8)', () => {
  const setUp = async () => {
    const [primary, fallback] = [diskStore(), diskStore()];
    await fallback.put('old-1.mp3', new Uint8Array([1, 2, 3, 4, 5]));
    return { primary, fallback, store: createLayeredBlobStore(primary, fallback) };
  };

  it('reads, describes and lists a blob only the older store has, by range too', async () => {
    const { store } = await setUp();
    expect(await store.stat('old-1.mp3')).toMatchObject({ name: 'old-1.mp3', size: 5 });
    expect([...(await bytes(store.read('old-1.mp3')))]).toEqual([1, 2, 3, 4, 5]);
    expect([...(await bytes(store.read('old-1.mp3', { start: 1, end: 2 })))]).toEqual([2, 3]);
    expect((await store.list()).map((b) => b.name)).toEqual(['old-1.mp3']);
  });

  it('writes to the primary only; its copy of a name wins, listed once', async () => {
    const { primary, fallback, store } = await setUp();
    await store.put('old-1.mp3', new Uint8Array([9]));
    await store.put('new-1.mp3', new Uint8Array([7, 7]));
    expect(await fallback.stat('new-1.mp3')).toBeNull();
    expect(await primary.stat('new-1.mp3')).toMatchObject({ size: 2 });
    expect([...(await bytes(store.read('old-1.mp3')))]).toEqual([9]);
    expect(await store.stat('old-1.mp3')).toMatchObject({ size: 1 });
    expect((await store.list()).map((b) => [b.name, b.size]).sort()).toEqual([
      ['new-1.mp3', 2],
      ['old-1.mp3', 1],
    ]);
  });

  it('deletes from both: an old blob does not come back once deleted', async () => {
    const { primary, fallback, store } = await setUp();
    await primary.put('old-1.mp3', new Uint8Array([9]));
    expect(await store.delete('old-1.mp3')).toBe(true);
    expect(await primary.stat('old-1.mp3')).toBeNull();
    expect(await fallback.stat('old-1.mp3')).toBeNull();
    expect(await store.stat('old-1.mp3')).toBeNull();
    expect(await store.delete('old-1.mp3')).toBe(false);
  });
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
