import { z } from 'zod';

/**
 * Every error the server can answer with, over REST and over socket acks. The client maps each
 * code to the spec's text (§8) through i18n (`errors.<code>`); the server localises the same
 * texts from `messages.ts`. Codes are snake_case; add new ones here only.
 */
export const ErrorCode = {
  validation_failed: 'validation_failed',
  invalid_payload: 'invalid_payload',
  unauthorized: 'unauthorized',
  token_expired: 'token_expired',
  session_revoked: 'session_revoked',
  signed_out: 'signed_out',
  password_changed: 'password_changed',
  invalid_credentials: 'invalid_credentials',
  refresh_invalid: 'refresh_invalid',
  forbidden: 'forbidden',
  not_found: 'not_found',
  email_taken: 'email_taken',
  plan_not_available: 'plan_not_available',
  rate_limited: 'rate_limited',
  limit_reached: 'limit_reached',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'unsupported_media_type',
  multipart_required: 'multipart_required',
  request_too_large: 'request_too_large',
  client_too_old: 'client_too_old',
  server_too_old: 'server_too_old',
  misdirected_request: 'misdirected_request',
  origin_not_allowed: 'origin_not_allowed',
  transcription_not_configured: 'transcription_not_configured',
  unsupported_audio: 'unsupported_audio',
  invalid_audio: 'invalid_audio',
  audio_too_long: 'audio_too_long',
  voice_note_failed: 'voice_note_failed',
  voice_format_invalid: 'voice_format_invalid',
  voice_file_damaged: 'voice_file_damaged',
  voice_file_too_large: 'voice_file_too_large',
  voice_limit_reached: 'voice_limit_reached',
  upload_feature_not_included: 'upload_feature_not_included',
  upload_storage_full: 'upload_storage_full',
  upload_concurrency_limit: 'upload_concurrency_limit',
  avatar_format_invalid: 'avatar_format_invalid',
  avatar_file_too_large: 'avatar_file_too_large',
  avatar_limit_reached: 'avatar_limit_reached',
  avatar_not_ready: 'avatar_not_ready',
  avatar_not_cancellable: 'avatar_not_cancellable',
  avatar_model_invalid: 'avatar_model_invalid',
  avatar_too_complex: 'avatar_too_complex',
  avatar_texture_too_large: 'avatar_texture_too_large',
  avatar_extension_unsupported: 'avatar_extension_unsupported',
  payments_maintenance: 'payments_maintenance',
  no_active_subscription: 'no_active_subscription',
  link_invalid: 'link_invalid',
  oauth_not_configured: 'oauth_not_configured',
  oauth_failed: 'oauth_failed',
  reply_failed: 'reply_failed',
  cancelled: 'cancelled',
  shutting_down: 'shutting_down',
  unavailable: 'unavailable',
  server_error: 'server_error',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_payload: 400,
  unauthorized: 401,
  token_expired: 401,
  session_revoked: 401,
  signed_out: 401,
  password_changed: 401,
  invalid_credentials: 401,
  refresh_invalid: 401,
  forbidden: 403,
  not_found: 404,
  email_taken: 409,
  plan_not_available: 400,
  rate_limited: 429,
  limit_reached: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  multipart_required: 415,
  request_too_large: 431,
  client_too_old: 426,
  server_too_old: 503,
  misdirected_request: 421,
  origin_not_allowed: 403,
  transcription_not_configured: 501,
  unsupported_audio: 415,
  invalid_audio: 422,
  audio_too_long: 413,
  voice_note_failed: 502,
  voice_format_invalid: 415,
  voice_file_damaged: 422,
  voice_file_too_large: 413,
  voice_limit_reached: 403,
  upload_feature_not_included: 403,
  upload_storage_full: 403,
  upload_concurrency_limit: 429,
  avatar_format_invalid: 415,
  avatar_file_too_large: 413,
  avatar_limit_reached: 403,
  avatar_not_ready: 409,
  avatar_not_cancellable: 409,
  avatar_model_invalid: 422,
  avatar_too_complex: 422,
  avatar_texture_too_large: 422,
  avatar_extension_unsupported: 422,
  payments_maintenance: 503,
  no_active_subscription: 400,
  link_invalid: 400,
  oauth_not_configured: 501,
  oauth_failed: 400,
  reply_failed: 502,
  cancelled: 409,
  shutting_down: 503,
  unavailable: 503,
  server_error: 500,
};

/** Codes a client may retry as they are (the same clientMessageId keeps a retry idempotent). */
export const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'rate_limited',
  'reply_failed',
  'voice_note_failed',
  'shutting_down',
  'unavailable',
  'server_error',
]);

export const FieldErrorSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const ErrorBodySchema = z.object({
  code: z.enum(ErrorCode),
  message: z.string(),
  /** Per-field problems of a validation failure; the client shows "field: message" pairs. */
  errors: z.array(FieldErrorSchema).optional(),
  retryAfterMs: z.number().int().nonnegative().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The one error shape, REST (`{ error }`) and socket acks (`{ ok: false, error }`) alike. */
export const ApiErrorSchema = z.object({ error: ErrorBodySchema });
export type ApiError = z.infer<typeof ApiErrorSchema>;
