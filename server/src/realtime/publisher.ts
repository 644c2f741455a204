import type { ServerEventName, ServerPayload } from '@alma/protocol';

/**
 * How services push events without knowing socket.io. Rooms: every socket of a user joins
 * `user:<id>`; sockets that send in or watch a session join `session:<id>`.
 */
export interface Publisher {
  toSession<E extends ServerEventName>(
    sessionId: string,
    event: E,
    payload: ServerPayload<E>,
    options?: { exceptSocketId?: string },
  ): void;
  toUser<E extends ServerEventName>(userId: string, event: E, payload: ServerPayload<E>): void;
}

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** For a server built without sockets (some integration tests): events go nowhere. */
export const silentPublisher: Publisher = {
  toSession: () => undefined,
  toUser: () => undefined,
};
