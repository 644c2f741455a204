import { MongoServerError } from 'mongodb';

/** The field whose unique index a write broke (E11000), or undefined for any other error. */
export function duplicateKeyField(error: unknown): string | undefined {
  if (!(error instanceof MongoServerError) || error.code !== 11000) return undefined;
  const pattern: unknown = error['keyPattern'];
  const fields = pattern !== null && typeof pattern === 'object' ? Object.keys(pattern) : [];
  // Older servers omit keyPattern; the error still is a duplicate key, so say so.
  return fields.join(',') || 'unknown';
}
