import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MODEL_FINDING_CODE, modelFindingMessage, type Language, type ModelFinding } from '@alma/protocol';
import { withFileSource } from '../../avatars/processing/byte-source.ts';
import { hasGlbHeader } from '../../avatars/processing/gltf-io.ts';
import { preflightGlb } from '../../avatars/processing/preflight.ts';
import { AppError } from '../../lib/app-error.ts';

/**
 * An upload's bytes on their way in (SPEC.md AU-1, AU-10): streamed to `incoming/` under the size
 * limit, then its GLB header and the checks before processing, all before anything is recorded.
 */

export interface IncomingFile {
  file: Readable;
  fileName: string;
  /** Set by the multipart parser when the stream was cut at its size limit. */
  truncated: () => boolean;
  /** The multipart field the file came in (`avatar`, `model`): refusal details name it. */
  field: string;
}

export interface ReceivedFile {
  path: string;
  size: number;
}

/** Streams the file to `dir`, counting bytes; over `maxBytes` it stops and refuses. Nothing stays on failure. */
export async function receiveFile(
  input: IncomingFile,
  dir: string,
  name: string,
  maxBytes: number,
): Promise<ReceivedFile> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.part`);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) done(new AppError('avatar_file_too_large', { detail: `over ${maxBytes} bytes` }));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(input.file, counter, createWriteStream(path));
    if (input.truncated()) throw new AppError('avatar_file_too_large', { detail: `over ${maxBytes} bytes` });
    return { path, size };
  } catch (error) {
    input.file.resume();
    await rm(path, { force: true });
    throw error;
  }
}

/**
 * The received file must be a GLB (12-byte header, AU-1) that passes the checks before processing
 * (AU-10); a refusal names every finding, in the request's language.
 */
export async function checkReceivedGlb(
  received: ReceivedFile,
  field: string,
  language: Language,
): Promise<void> {
  if (received.size === 0) throw new AppError('avatar_format_invalid', { detail: 'empty file' });
  const result = await withFileSource(received.path, async (source) => {
    if (!hasGlbHeader(await source.read(0, 12), received.size)) return null;
    return preflightGlb(source);
  });
  if (!result) throw new AppError('avatar_format_invalid', { detail: 'no glTF 2.0 binary header' });
  if (!result.ok) throw refusal(result.findings, field, language);
}

/** The AppError for findings: the first names the code; each becomes a detail line. */
export function refusal(findings: ModelFinding[], field: string, language: Language): AppError {
  const first = findings[0];
  return new AppError(first ? MODEL_FINDING_CODE[first.reason] : 'avatar_model_invalid', {
    detail: findings.map((f) => `${f.reason} ${JSON.stringify(f.params)}`).join('; '),
    fields: findings.map((f) => ({ field, code: f.reason, message: modelFindingMessage(language, f) })),
  });
}
