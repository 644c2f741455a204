import type { z } from 'zod';
import { isFieldCode, type FieldCode } from '@alma/protocol';

/**
 * The first field code a protocol schema reports for a value, or null when it is valid. The
 * schemas' messages are field codes (protocol/src/entities.ts); the UI shows `validation.<code>`.
 */
export function fieldError(schema: z.ZodType, value: unknown): FieldCode | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const code = result.error.issues[0]?.message ?? 'invalid';
  return isFieldCode(code) ? code : 'invalid';
}
