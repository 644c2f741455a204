import { ERROR_STATUS, type ErrorCode, type FieldError } from '@alma/protocol';

/**
 * The only error services throw. The HTTP error handler and the socket wrapper turn it into
 * `{ code, message }` with the spec's text in the caller's language; `detail` is for logs only.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly options: { detail?: string; fields?: FieldError[]; retryAfterMs?: number } = {},
  ) {
    super(options.detail ?? code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
