import { open } from 'node:fs/promises';

/**
 * Random access to an upload's bytes, so the checks before processing read only what they look at
 * (the GLB's JSON chunk and a few bytes per image header) whether the file is on disk (the upload
 * route) or in memory (the worker).
 */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from `offset`; fewer at the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    read: async (offset, length) =>
      bytes.subarray(Math.min(offset, bytes.byteLength), Math.min(offset + length, bytes.byteLength)),
  };
}

/** Opens `path` for positional reads; `use` runs with the source and the file is closed after. */
export async function withFileSource<T>(path: string, use: (source: ByteSource) => Promise<T>): Promise<T> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    return await use({
      size,
      read: async (offset, length) => {
        const wanted = Math.max(0, Math.min(length, size - offset));
        const buffer = new Uint8Array(wanted);
        const { bytesRead } = await handle.read(buffer, 0, wanted, offset);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}
