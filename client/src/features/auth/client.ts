import {
  LoginBodySchema,
  NameSchema,
  NewPasswordSchema,
  RegisterEmailSchema,
  routes,
  type FieldCode,
} from '@alma/protocol';
import { fieldError } from '../../lib/validation.ts';

/**
 * What the auth screens need only once the user types or sends: the API client, the protocol's
 * routes and its field rules (zod). Its own chunk, fetched as a screen shows (./server.ts), so the
 * sign-in pages render without it (issue 12, "a lean first screen").
 */
export { ApiError, call, errorText } from '../../lib/api.ts';
export { fetchPreferences, usePreferences } from '../../lib/preferences.ts';
export { routes };

type Rule = (value: string) => FieldCode | null;

/** The protocol's field rules as the forms use them: the first code a value breaks, or null. */
export const rules = {
  loginEmail: (value) => fieldError(LoginBodySchema.shape.email, value),
  loginPassword: (value) => fieldError(LoginBodySchema.shape.password, value),
  name: (value) => fieldError(NameSchema, value),
  registerEmail: (value) => fieldError(RegisterEmailSchema, value),
  newPassword: (value) => fieldError(NewPasswordSchema, value),
} satisfies Record<string, Rule>;

export type AuthRules = typeof rules;
