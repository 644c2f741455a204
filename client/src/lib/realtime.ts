import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import {
  PROTOCOL_VERSION,
  versionMismatch,
  type Ack,
  type ClientEventName,
  type ClientPayload,
  type ClientResult,
  type ServerEventName,
  type ServerPayload,
  type VersionMismatch,
} from '@alma/protocol';
import { i18n } from './i18n.ts';
import { emitWithAck, type AppSocket } from './socket.ts';

/**
 * The app's realtime layer as features see it (ARCHITECTURE §2): one socket, owned by app/'s
 * RealtimeProvider for every signed-in screen; its connection state; a typed bus of the server's
 * events (validated by the provider against their protocol schemas before they are published
 * here); and requests with acknowledgements. Features subscribe to the events they need and
 * never touch socket.io themselves.
 */

export type HealthState = 'checking' | 'online' | 'degraded' | 'offline' | 'unknown';
export type SocketState = 'idle' | 'connecting' | 'connected' | 'disconnected';
/**
 * Spec §4 "Server status": checking is shown as Connecting. `degraded` (SPEC.md H-2): the server
 * answers but one of its dependencies (the database, Redis) is down — said, input kept.
 */
export type ConnectionStatus = 'checking' | 'online' | 'degraded' | 'offline' | 'unknown';
export type ServerInfo = ServerPayload<'server:status'>;

export interface ConnectionState {
  /** The last GET /health answer (or its failure). */
  health: HealthState;
  socketState: SocketState;
  /** The latest `server:status`, pushed on connect and whenever the server's health changes. */
  serverInfo: ServerInfo | null;
  /** Which side speaks the older protocol, once the server said so (SPEC.md P-1); null: none. */
  protocolMismatch: VersionMismatch | null;
}

export const initialConnection: ConnectionState = {
  health: 'checking',
  socketState: 'idle',
  serverInfo: null,
  protocolMismatch: null,
};

export const useConnection = create<ConnectionState>()(() => initialConnection);

/** What the header shows: the socket's word when it is up, else the health check's. */
export function connectionStatus(state: ConnectionState): ConnectionStatus {
  if (state.socketState === 'connected') {
    const status = state.serverInfo?.status;
    return status === 'maintenance' ? 'offline' : status === 'degraded' ? 'degraded' : 'online';
  }
  if (state.health === 'offline') return 'offline';
  if (state.health === 'degraded') return 'degraded';
  if (state.health === 'unknown') return 'unknown';
  if (state.health === 'online') return state.socketState === 'connecting' ? 'checking' : 'online';
  return 'checking';
}

export const selectConnectionStatus = (state: ConnectionState): ConnectionStatus => connectionStatus(state);

// ── Server events ───────────────────────────────────────────────────────────────────────────

/** One server event as a tagged value, for code that handles several kinds in one place. */
export type AnyServerEvent = {
  [E in ServerEventName]: { name: E; payload: ServerPayload<E> };
}[ServerEventName];

type Listener<E extends ServerEventName> = (payload: ServerPayload<E>) => void;

const listeners = new Map<ServerEventName, Set<(payload: never) => void>>();

/** Calls `listener` with every `name` event until the returned function is called. */
export function onServerEvent<E extends ServerEventName>(name: E, listener: Listener<E>): () => void {
  const set = listeners.get(name) ?? new Set();
  set.add(listener);
  listeners.set(name, set);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(name);
  };
}

/** Subscribes one handler to several events; it receives them tagged with their name. */
export function onServerEvents(
  names: readonly ServerEventName[],
  listener: (event: AnyServerEvent) => void,
): () => void {
  const offs = names.map((name) =>
    onServerEvent(name, (payload) => listener({ name, payload } as AnyServerEvent)),
  );
  return () => offs.forEach((off) => off());
}

/**
 * Delivers an event to its subscribers. The provider publishes what the socket received (already
 * validated); the chat's REST transport publishes the reply a `POST /message` answered with, so
 * both transports feed the same handlers. A listener that throws does not stop the others.
 */
export function publishServerEvent<E extends ServerEventName>(name: E, payload: ServerPayload<E>): void {
  if (name === 'server:status') applyServerStatus(payload as ServerInfo);
  for (const listener of [...(listeners.get(name) ?? [])]) {
    try {
      (listener as Listener<E>)(payload);
    } catch (error) {
      console.error('A listener of', name, 'failed', error);
    }
  }
}

function applyServerStatus(info: ServerInfo): void {
  useConnection.setState((s) => ({
    serverInfo: info,
    protocolMismatch: s.protocolMismatch ?? versionMismatch(PROTOCOL_VERSION, info.protocolVersion),
  }));
}

/** React: `listener` (its latest version) hears every `name` event while the component is mounted. */
export function useServerEvent<E extends ServerEventName>(name: E, listener: Listener<E>): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onServerEvent(name, (payload) => latest.current(payload)), [name]);
}

// ── Requests ────────────────────────────────────────────────────────────────────────────────

let socket: AppSocket | null = null;

/** Set by the provider when it creates and disposes of the socket. */
export function attachSocket(next: AppSocket | null): void {
  socket = next;
}

export function isRealtimeConnected(): boolean {
  return socket?.connected ?? false;
}

/**
 * A client request with its acknowledgement. Without a connected socket it answers at once with
 * `unavailable`, the code a missing ack has (lib/socket.ts), so callers handle one shape.
 */
export function request<E extends ClientEventName>(
  event: E,
  payload: ClientPayload<E>,
  timeoutMs?: number,
): Promise<Ack<ClientResult<E>>> {
  if (!socket?.connected) {
    return Promise.resolve({ ok: false, error: { code: 'unavailable', message: i18n.t('errors.timeout') } });
  }
  return emitWithAck(socket, event, payload, timeoutMs);
}
