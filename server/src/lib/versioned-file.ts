import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A file made from something that changes (a forged model, its portrait), kept beside a
 * `.version` file naming what it was made from: read back only while the version still matches,
 * written aside and renamed so a reader never sees half a file, even across processes.
 */
export interface VersionedFile {
  data: string;
  version: string;
}

/** The file's bytes when its stored version is `version`; null when missing or out of date. */
export async function readVersioned(paths: VersionedFile, version: string): Promise<Uint8Array | null> {
  const stored = await readFile(paths.version, 'utf8').catch(() => null);
  if (stored?.trim() !== version) return null;
  const data = await readFile(paths.data).catch(() => null);
  return data ? new Uint8Array(data) : null;
}

export async function writeVersioned(paths: VersionedFile, data: Uint8Array, version: string): Promise<void> {
  await mkdir(dirname(paths.data), { recursive: true });
  await writeAtomic(paths.data, data);
  await writeAtomic(paths.version, `${version}\n`);
}

async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
