import type { ServerEventName, ServerPayload } from '@alma/protocol';
import { keptResults } from '../lib/kept-results.ts';

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

/** How many rooms' broadcast targets `roomTargets` keeps. */
export const ROOM_TARGETS = 4096;

/**
 * One broadcast target per room, made once and reused (issue 14): socket.io's `io.to(room)`
 * builds two operators and three Sets on every emit, and connection-state recovery keeps each
 * packet's targets for two minutes — at 200 replies at once, ~10,000 emits a round. The targets
 * of the `max` rooms first used most recently are kept; one dropped is made again when needed.
 */
export const roomTargets = <T>(to: (room: string) => T, max = ROOM_TARGETS): ((room: string) => T) =>
  keptResults(to, max);
