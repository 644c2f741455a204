type Part = { field: string; value: string } | { field: string; name: string; data: Uint8Array };

/** A multipart/form-data body for `inject` with the parts in the given order (text or file). */
export function multipartParts(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----alma${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        ),
      );
      continue;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${part.field}"; filename="${part.name}"\r\n` +
          'content-type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A multipart/form-data body for `inject`: text fields first, then at most one file part. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { field: string; name: string; data: Uint8Array },
): { payload: Buffer; contentType: string } {
  return multipartParts([
    ...Object.entries(fields).map(([field, value]) => ({ field, value })),
    ...(file ? [file] : []),
  ]);
}
