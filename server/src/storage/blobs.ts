import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * Files the server keeps for its users (reply audio, voice notes, voice samples, custom avatars),
 * by name, in one flat namespace per store: on disk under DATA_DIR, or in GridFS when the
 * database is MongoDB (`storage/blob-stores.ts` decides). Names are checked by `isBlobName`
 * before they reach a store, so a path can never leave its folder.
 */
export interface BlobInfo {
  name: string;
  size: number;
  /** When it was written. */
  createdAt: Date;
}

export interface BlobStore {
  /** Writes the whole blob (bytes, or a stream read to its end); readers see the old one until then. */
  put(name: string, data: Uint8Array | Readable): Promise<void>;
  stat(name: string): Promise<BlobInfo | null>;
  /** Bytes `start`…`end` (inclusive), or the whole blob. */
  read(name: string, range?: { start: number; end: number }): Readable;
  /** False when there was none. */
  delete(name: string): Promise<boolean>;
  list(): Promise<BlobInfo[]>;
}

/**
 * `<id>.<ext>` or `<id>.<role>.<ext>` (`avatar-….portrait.webp`): letters, digits, `_` and `-`,
 * then at most one lower-case role and a short lower-case extension — no slash, no empty part.
 */
const BLOB_NAME = /^[A-Za-z0-9_-]{1,100}(\.[a-z]{2,12})?\.[a-z0-9]{2,5}$/;

export const isBlobName = (name: string): boolean => BLOB_NAME.test(name);

export function checked(name: string): string {
  if (!isBlobName(name)) throw new Error(`invalid blob name ${JSON.stringify(name)}`);
  return name;
}

/** Each write's own temp file, so that two writes of one name at once do not share one. */
let writes = 0;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Blobs as files in `dir`, written atomically (temp file, rename). The folder is made on the first
 * write, not before every one, and made again should it have gone since.
 */
export function createDiskBlobStore(dir: string): BlobStore {
  const path = (name: string) => join(dir, checked(name));
  let made: Promise<unknown> | undefined;
  const makeDir = () =>
    (made ??= mkdir(dir, { recursive: true }).catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
  const write = async (target: string, data: Uint8Array | Readable) => {
    const temp = `${target}.${process.pid}.${++writes}.part`;
    try {
      await writeFile(temp, data);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };
  const store: BlobStore = {
    async put(name, data) {
      const target = path(name);
      await makeDir();
      try {
        await write(target, data);
      } catch (error) {
        // The folder went after it was made (cleared by hand): made again, once. A stream that was
        // read already cannot be written again.
        if (!missing(error) || data instanceof Readable) throw error;
        made = undefined;
        await makeDir();
        await write(target, data);
      }
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

/**
 * A store moving to `primary` from `fallback` (SPEC.md M-8: GridFS over the files a deployment
 * kept under DATA_DIR before it had MongoDB): writes go to the primary; a name the primary lacks
 * is read from the fallback; deletions, and so the retention sweep, act on both.
 */
export function createLayeredBlobStore(primary: BlobStore, fallback: BlobStore): BlobStore {
  const holder = async (name: string) => ((await primary.stat(name)) ? primary : fallback);
  return {
    put: (name, data) => primary.put(name, data),
    stat: async (name) => (await primary.stat(name)) ?? fallback.stat(name),
    read(name, range) {
      checked(name);
      return Readable.from(
        (async function* () {
          yield* (await holder(name)).read(name, range);
        })(),
        { objectMode: false },
      );
    },
    async delete(name) {
      const [inPrimary, inFallback] = await Promise.all([primary.delete(name), fallback.delete(name)]);
      return inPrimary || inFallback;
    },
    async list() {
      const [newer, older] = await Promise.all([primary.list(), fallback.list()]);
      const names = new Set(newer.map((info) => info.name));
      return [...newer, ...older.filter((info) => !names.has(info.name))];
    },
  };
}
