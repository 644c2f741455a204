/**
 * Bumped whenever a change to routes or events would break an older client. The client sends it
 * in the socket handshake and on every REST call (`PROTOCOL_VERSION_HEADER`); a mismatch is
 * refused saying which side is old (SPEC.md P-1).
 */
export const PROTOCOL_VERSION = 1;

/** The request header carrying the client's protocol version on REST calls (SPEC.md P-1). */
export const PROTOCOL_VERSION_HEADER = 'x-alma-protocol';

/** Which side of a connection speaks the older protocol (SPEC.md P-1). */
export type VersionMismatch = 'client_too_old' | 'server_too_old';

/** Null when both sides speak the same protocol version. */
export function versionMismatch(clientVersion: number, serverVersion: number): VersionMismatch | null {
  if (clientVersion === serverVersion) return null;
  return clientVersion < serverVersion ? 'client_too_old' : 'server_too_old';
}

/** The application version reported by `/health` and `server:status`. */
export const APP_VERSION = '0.1.0';
