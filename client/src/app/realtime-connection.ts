import { ServerEvent, serverEvents, type ErrorCode, type ServerEventName } from '@alma/protocol';
import { api } from '../lib/api.ts';
import { attachSocket, publishServerEvent, useConnection, type SocketState } from '../lib/realtime.ts';
import { classifyConnectError, createSocket } from '../lib/socket.ts';

export interface RealtimeDeps {
  createSocket: typeof createSocket;
  getToken: () => string | null;
  /** One refresh after an auth refusal (rotating tokens: shared with every other call). */
  refresh: (cause?: ErrorCode) => Promise<boolean>;
}

const setSocketState = (socketState: SocketState) => useConnection.setState({ socketState });

/**
 * Opens the app's one socket and keeps it: every server event is checked against its protocol
 * schema and published on the realtime bus (lib/realtime.ts); connection state goes to
 * `useConnection`. Handshake refusals: token_expired / unauthorized → refresh once and reconnect;
 * client_too_old / server_too_old → the banner saying which side is old (SPEC.md P-1). The browser's offline / online events drop and restore
 * the socket at once (spec §4: offline blocks sending). Returns the disposer.
 */
export function connectRealtime(deps: RealtimeDeps): () => void {
  const socket = deps.createSocket(deps.getToken);
  let refreshedForThisAttempt = false;
  let disposed = false;
  attachSocket(socket);

  socket.on('connect', () => {
    refreshedForThisAttempt = false;
    setSocketState('connected');
  });

  socket.on('disconnect', () => {
    // `active` means socket.io is reconnecting by itself (not a server-side refusal).
    setSocketState(socket.active ? 'connecting' : 'disconnected');
  });

  socket.on('connect_error', (error) => {
    const { kind, error: refusal } = classifyConnectError(error);
    if (kind === 'protocol') {
      const protocolMismatch = refusal?.code === 'server_too_old' ? 'server_too_old' : 'client_too_old';
      useConnection.setState({ protocolMismatch, socketState: 'disconnected' });
      return;
    }
    if (kind === 'auth') {
      setSocketState('disconnected');
      if (refreshedForThisAttempt) return;
      refreshedForThisAttempt = true;
      void deps.refresh(refusal?.code).then((ok) => {
        // A failed refresh clears the session; the route guard then shows /login.
        if (ok && !disposed) {
          setSocketState('connecting');
          socket.connect();
        }
      });
      return;
    }
    setSocketState(socket.active ? 'connecting' : 'disconnected');
  });

  for (const name of Object.values<ServerEventName>(ServerEvent)) {
    const schema = serverEvents[name];
    // One generic listener for every event; socket.io's typings need each name's own signature.
    const listener = (payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        console.warn('Ignoring malformed server event', name, parsed.error.issues);
        return;
      }
      publishServerEvent(name, parsed.data as never);
    };
    socket.on(name, listener);
  }

  const onOffline = () => {
    socket.disconnect();
    setSocketState('disconnected');
  };
  const onOnline = () => {
    if (socket.connected || disposed) return;
    setSocketState('connecting');
    socket.connect();
  };
  window.addEventListener('offline', onOffline);
  window.addEventListener('online', onOnline);

  setSocketState('connecting');
  socket.connect();

  return () => {
    disposed = true;
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
    attachSocket(null);
    socket.removeAllListeners();
    socket.disconnect();
    useConnection.setState({ socketState: 'idle', serverInfo: null });
  };
}

export const defaultRealtimeDeps = (getToken: () => string | null): RealtimeDeps => ({
  createSocket,
  getToken,
  refresh: (cause) => api.refreshSession(cause),
});
