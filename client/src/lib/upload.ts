import { ApiErrorSchema } from '@alma/protocol';
import type { z } from 'zod';

/** A refusal or failure of a file upload: the server's error code and the text to show. */
export class UploadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export interface MultipartUpload<S extends z.ZodType> {
  path: string;
  /** Text fields, sent before the file (the server reads them first). */
  fields: Record<string, string>;
  fileField: string;
  file: File;
  /** The caller's access token (uploads are not JSON calls, so `api.call` is not used). */
  token: string | null;
  language: string;
  response: S;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Shown for a failure without a usable server answer (spec §8 "Upload failed: …"). */
  failedText: string;
}

/** Upload progress as a whole percentage, 0–100. */
export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}

/**
 * A multipart POST with upload progress. XMLHttpRequest rather than fetch: only it reports how
 * much of the body has been sent. The answer is parsed with the route's schema; an error answer
 * becomes an UploadError with the server's text (the first field error's when there are some).
 */
export function uploadMultipart<S extends z.ZodType>(options: MultipartUpload<S>): Promise<z.infer<S>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(options.fields)) form.append(key, value);
  form.append(options.fileField, options.file, options.file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', options.path);
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    xhr.setRequestHeader('accept-language', options.language);
    xhr.upload.onprogress = (event) => options.onProgress?.(percentOf(event.loaded, event.total));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        // An unreadable answer is a failure below.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = options.response.safeParse(body);
        if (parsed.success) return resolve(parsed.data);
        return reject(new UploadError('invalid_response', options.failedText));
      }
      const error = ApiErrorSchema.safeParse(body);
      if (!error.success) return reject(new UploadError('server_error', options.failedText));
      const first = error.data.error.errors?.[0];
      reject(new UploadError(error.data.error.code, first ? first.message : error.data.error.message));
    };
    xhr.onerror = () => reject(new UploadError('network_error', options.failedText));
    xhr.onabort = () => reject(new UploadError('cancelled', options.failedText));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
