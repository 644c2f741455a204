import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Files the server generates and serves (a reply's audio), by name, in one flat namespace per
 * store. One implementation now, on disk (`DATA_DIR/audio`); a GridFS one can follow for
 * instances sharing MongoDB. Names are checked by `isBlobName` before they reach a store, so a
 * path can never leave its folder.
 */
export interface BlobInfo {
  name: string;
  size: number;
  /** When it was written. */
  createdAt: Date;
}

export interface BlobStore {
  put(name: string, data: Uint8Array): Promise<void>;
  stat(name: string): Promise<BlobInfo | null>;
  /** Bytes `start`…`end` (inclusive), or the whole blob. */
  read(name: string, range?: { start: number; end: number }): Readable;
  /** False when there was none. */
  delete(name: string): Promise<boolean>;
  list(): Promise<BlobInfo[]>;
}

/** `<id>.<ext>`: letters, digits, `_` and `-`, one dot, a short lower-case extension. */
const BLOB_NAME = /^[A-Za-z0-9_-]{1,100}\.[a-z0-9]{2,5}$/;

export const isBlobName = (name: string): boolean => BLOB_NAME.test(name);

export function checked(name: string): string {
  if (!isBlobName(name)) throw new Error(`invalid blob name ${JSON.stringify(name)}`);
  return name;
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Blobs as files in `dir` (created on first write), written atomically (temp file, rename). */
export function createDiskBlobStore(dir: string): BlobStore {
  const path = (name: string) => join(dir, checked(name));
  const store: BlobStore = {
    async put(name, data) {
      await mkdir(dir, { recursive: true });
      const target = path(name);
      const temp = `${target}.${process.pid}.${Date.now()}.part`;
      await writeFile(temp, data);
      await rename(temp, target);
    },
    async stat(name) {
      try {
        const info = await stat(path(name));
        return info.isFile() ? { name, size: info.size, createdAt: info.mtime } : null;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    read(name, range) {
      return createReadStream(path(name), range ? { start: range.start, end: range.end } : {});
    },
    async delete(name) {
      try {
        await unlink(path(name));
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
      const infos = await Promise.all(names.filter(isBlobName).map((name) => store.stat(name)));
      return infos.filter((info): info is BlobInfo => info !== null);
    },
  };
  return store;
}
