/**
 * Bumped whenever a change to routes or events would break an older client. The client sends it
 * in the socket handshake; a mismatch is refused with `protocol_mismatch` (SPEC.md P-1).
 */
export const PROTOCOL_VERSION = 1;

/** The application version reported by `/health` and `server:status`. */
export const APP_VERSION = '0.1.0';
