import { GridFSBucket, type Db } from 'mongodb';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checked, type BlobInfo, type BlobStore } from '../blobs.ts';

/**
 * Blobs in MongoDB's GridFS, one bucket per store, so replicas sharing MONGODB_URI need no
 * shared disk (issue 15). Thin on purpose: GridFS keeps the bytes; a name is a GridFS file name,
 * and writing a name again replaces it (the new file is written first, then the older ones go).
 * Run by the blob contract suite (storage/blobs.test.ts) wherever MONGODB_URI is set.
 */
export function createGridFsBlobStore(db: Db, bucketName: string): BlobStore {
  const bucket = new GridFSBucket(db, { bucketName });
  const files = (name: string) =>
    bucket
      .find({ filename: checked(name) })
      .sort({ uploadDate: -1 })
      .toArray();
  const info = (file: { filename: string; length: number; uploadDate: Date }): BlobInfo => ({
    name: file.filename,
    size: file.length,
    createdAt: file.uploadDate,
  });
  return {
    async put(name, data) {
      const upload = bucket.openUploadStream(checked(name));
      const source =
        data instanceof Uint8Array
          ? Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)])
          : data;
      await pipeline(source, upload);
      for (const older of await files(name)) {
        if (!older._id.equals(upload.id)) await bucket.delete(older._id).catch(() => undefined);
      }
    },
    async stat(name) {
      const [newest] = await files(name);
      return newest ? info(newest) : null;
    },
    read(name, range): Readable {
      // GridFS's `end` is exclusive; the store's is inclusive.
      return bucket.openDownloadStreamByName(
        checked(name),
        range ? { start: range.start, end: range.end + 1 } : {},
      );
    },
    async delete(name) {
      const found = await files(name);
      for (const file of found) await bucket.delete(file._id);
      return found.length > 0;
    },
    async list() {
      const newest = new Map<string, BlobInfo>();
      for (const file of await bucket.find({}).sort({ uploadDate: 1 }).toArray()) {
        newest.set(file.filename, info(file));
      }
      return [...newest.values()];
    },
  };
}
