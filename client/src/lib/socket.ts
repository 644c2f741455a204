import { io, type Socket } from 'socket.io-client';
import {
  AuthRevokedSchema,
  ConnectErrorDataSchema,
  PROTOCOL_VERSION,
  SessionEndCodeSchema,
  type Ack,
  type ClientEventName,
  type ClientPayload,
  type ClientResult,
  type ClientToServerEvents,
  type ErrorBody,
  type HandshakeAuth,
  type ServerToClientEvents,
  ServerEvent,
} from '@alma/protocol';
import { i18n } from './i18n.ts';
import { useSession } from './session.ts';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How long a request waits for its ack before it counts as failed (and may be retried). */
export const ACK_TIMEOUT_MS = 15_000;

/**
 * A socket to the same origin. `auth` is a function so every (re)connection presents the token
 * current at that moment, not the one from when the socket was made (SPEC.md P-2).
 *
 * When the server ends the session the socket was opened with (`auth:revoked`, SPEC.md A-12:
 * a logout elsewhere, a password change, a token reuse), the session is cleared with the reason
 * — the route guard then shows the sign-in page, which says why (`useSession` `ended`). If this
 * tab already holds a newer session (signed in again in another tab), the socket reconnects
 * with it instead.
 */
export function createSocket(getToken: () => string | null): AppSocket {
  let presented: string | null = null;
  const socket: AppSocket = io({
    path: '/socket.io',
    autoConnect: false,
    // WebSocket first: one connection to one replica, so the proxy balances without sticky
    // sessions (README, "Many instances"). Long-polling only where a WebSocket cannot open.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    auth: (cb: (data: HandshakeAuth) => void) => {
      presented = getToken();
      cb({ token: presented ?? '', protocolVersion: PROTOCOL_VERSION });
    },
  });
  socket.on(ServerEvent.authRevoked, (payload) => {
    const parsed = AuthRevokedSchema.safeParse(payload);
    const session = useSession.getState();
    session.reload();
    const current = useSession.getState().token;
    if (current === null) return;
    if (current !== presented) socket.connect();
    else session.clear(parsed.success ? parsed.data.code : 'session_revoked');
  });
  return socket;
}

/**
 * Emits a client request and resolves with its ack. A missing ack (timeout, dropped connection)
 * resolves as `{ ok: false }` with code `unavailable`, never rejects, so callers handle one shape.
 */
export async function emitWithAck<E extends ClientEventName>(
  socket: AppSocket,
  event: E,
  payload: ClientPayload<E>,
  timeoutMs: number = ACK_TIMEOUT_MS,
): Promise<Ack<ClientResult<E>>> {
  try {
    // socket.io's typed emit cannot follow a generic event name; the map above fixes the shapes.
    const emitter = socket.timeout(timeoutMs) as unknown as {
      emitWithAck: (event: E, payload: ClientPayload<E>) => Promise<Ack<ClientResult<E>>>;
    };
    return await emitter.emitWithAck(event, payload);
  } catch {
    return { ok: false, error: { code: 'unavailable', message: i18n.t('errors.timeout') } };
  }
}

/** What a refused handshake means for the client (`connect_error`: message = code, data = body). */
export type ConnectRefusal = 'auth' | 'protocol' | 'other';

export function classifyConnectError(error: Error & { data?: unknown }): {
  kind: ConnectRefusal;
  error: ErrorBody | null;
} {
  const parsed = ConnectErrorDataSchema.safeParse(error.data);
  const code = parsed.success ? parsed.data.code : error.message;
  const body = parsed.success ? parsed.data : null;
  if (code === 'token_expired' || code === 'unauthorized' || SessionEndCodeSchema.safeParse(code).success) {
    return { kind: 'auth', error: body };
  }
  if (code === 'client_too_old' || code === 'server_too_old') return { kind: 'protocol', error: body };
  return { kind: 'other', error: body };
}
