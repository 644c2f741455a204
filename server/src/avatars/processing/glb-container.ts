import { AVATAR_MODEL_LIMITS, type ModelFinding } from '@alma/protocol';
import type { ByteSource } from './byte-source.ts';

/**
 * The GLB container (glTF 2.0 §4.4): a 12-byte header, then chunks `[length][type][data]` — the
 * JSON first, then at most one BIN. Read from a ByteSource, so a 50 MB upload costs the JSON's
 * bytes and nothing more.
 */

const JSON_CHUNK = 0x4e4f534a;
const BIN_CHUNK = 0x004e4942;

export interface GlbContainer {
  /** The parsed JSON chunk (untrusted: any shape). */
  json: unknown;
  /** Where the BIN chunk's data lies in the file, if there is one. */
  bin: { offset: number; length: number } | null;
}

export type ContainerResult = { ok: true; glb: GlbContainer } | { ok: false; finding: ModelFinding };

const broken = (detail: string): ContainerResult => ({
  ok: false,
  finding: { reason: 'container_invalid', params: { detail } },
});

export async function readGlbContainer(source: ByteSource): Promise<ContainerResult> {
  const header = await source.read(0, 20);
  if (header.length < 20) return broken('too short');
  const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (v.getUint32(0, true) !== 0x46546c67 || v.getUint32(4, true) !== 2) return broken('not glTF 2.0');
  if (v.getUint32(8, true) !== source.size) return broken('length does not match the file');
  const jsonLength = v.getUint32(12, true);
  if (v.getUint32(16, true) !== JSON_CHUNK) return broken('the first chunk is not JSON');
  if (20 + jsonLength > source.size) return broken('the JSON chunk runs past the end');
  if (jsonLength > AVATAR_MODEL_LIMITS.maxJsonBytes)
    return { ok: false, finding: { reason: 'json_too_large', params: { bytes: jsonLength } } };

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await source.read(20, jsonLength)));
  } catch {
    return { ok: false, finding: { reason: 'json_invalid', params: {} } };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, finding: { reason: 'json_invalid', params: {} } };

  // Later chunks: the first BIN is the buffer without a URI; unknown chunk types are skipped.
  let bin: GlbContainer['bin'] = null;
  let at = 20 + align4(jsonLength);
  while (at < source.size) {
    const chunk = await source.read(at, 8);
    if (chunk.length < 8) return broken('a chunk header is cut short');
    const cv = new DataView(chunk.buffer, chunk.byteOffset, 8);
    const length = cv.getUint32(0, true);
    if (at + 8 + length > source.size) return broken('a chunk runs past the end');
    if (cv.getUint32(4, true) === BIN_CHUNK && !bin) bin = { offset: at + 8, length };
    at += 8 + align4(length);
  }
  return { ok: true, glb: { json, bin } };
}

const align4 = (n: number) => Math.ceil(n / 4) * 4;
