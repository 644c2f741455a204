import { fieldMessage, type FieldCode, type FieldError, type Language } from '@alma/protocol';
import type { z } from 'zod';
import { AppError } from './app-error.ts';

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

/** A refusal of one field with one field code (400 `validation_failed`), in the caller's language. */
export function fieldError(field: string, code: FieldCode, language: Language, detail?: string): AppError {
  return new AppError('validation_failed', {
    fields: [{ field, code, message: fieldMessage(language, code) }],
    ...(detail ? { detail } : {}),
  });
}
