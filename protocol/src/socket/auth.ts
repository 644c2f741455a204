import { z } from 'zod';

/**
 * Why the server ended a signed-in session (SPEC.md A-12). Each is also an error code, so its
 * text lives once in `messages.ts` and the client shows it through `errors.<code>`.
 */
export const SessionEndCodeSchema = z.enum(['signed_out', 'password_changed', 'session_revoked']);
export type SessionEndCode = z.infer<typeof SessionEndCodeSchema>;

/**
 * `auth:revoked`: sent to each socket of a revoked session just before the server disconnects it
 * (`io server disconnect`): a logout elsewhere, a password change, a refresh-token reuse.
 */
export const AuthRevokedSchema = z.object({
  code: SessionEndCodeSchema,
  /** The code's text in the socket's language. */
  message: z.string(),
});
export type AuthRevoked = z.infer<typeof AuthRevokedSchema>;
