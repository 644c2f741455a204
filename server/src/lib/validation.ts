import { fieldMessage, type FieldError, type Language } from '@alma/protocol';
import type { z } from 'zod';

/**
 * zod issues → the spec's field errors. Protocol schemas use field codes (emailRequired, …) as
 * their messages; anything else (a wrong type deep in a payload) reads as `invalid`.
 */
export function fieldErrors(error: z.ZodError, language: Language, prefix?: string): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const field = [prefix, path].filter(Boolean).join('.') || (prefix ?? 'body');
    const code = /^[a-zA-Z]+$/.test(issue.message) ? issue.message : 'invalid';
    return { field, code, message: fieldMessage(language, code) };
  });
}
