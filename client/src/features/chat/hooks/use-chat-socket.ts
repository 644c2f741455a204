import { useEffect } from 'react';
import { ClientEvent, ServerEvent, serverEvents, type ServerEventName } from '@alma/protocol';
import { api } from '../../../lib/api.ts';
import { useSession } from '../../../lib/session.ts';
import {
  publishUploadProgress,
  setUploadProgressLive,
  type UploadProgressEvent as UploadProgress,
} from '../../../lib/upload-progress.ts';
import { classifyConnectError, createSocket, emitWithAck } from '../../../lib/socket.ts';
import { useUsage, type UsageUpdated } from '../../../lib/usage.ts';
import type { ChatServerEvent } from '../events.ts';
import { useChat } from '../store.ts';

const VOICE_ACK_TIMEOUT_MS = 90_000;

/**
 * The one hook that subscribes the socket to the chat store (STYLE.md). Handshake refusals:
 * token_expired / unauthorized → refresh once and reconnect; protocol_mismatch → reload banner.
 */
export function useChatSocket() {
  useEffect(() => {
    const chat = useChat.getState();
    const socket = createSocket(() => useSession.getState().token);
    let refreshedForThisAttempt = false;
    let disposed = false;

    chat.setTransport({
      isConnected: () => socket.connected,
      send: (payload) => emitWithAck(socket, ClientEvent.chatSend, payload),
      // Decoding and transcribing take longer than a text send (SPEC.md V-2, V-3).
      voice: (payload) => emitWithAck(socket, ClientEvent.chatVoice, payload, VOICE_ACK_TIMEOUT_MS),
      watch: (sessionId) => {
        if (socket.connected) void emitWithAck(socket, ClientEvent.sessionWatch, { sessionId });
      },
      cancel: (payload) => emitWithAck(socket, ClientEvent.chatCancel, payload),
    });

    socket.on('connect', () => {
      refreshedForThisAttempt = false;
      setUploadProgressLive(true);
      const state = useChat.getState();
      state.setSocketState('connected');
      if (state.activeSessionId)
        void emitWithAck(socket, ClientEvent.sessionWatch, { sessionId: state.activeSessionId });
    });

    socket.on('disconnect', () => {
      setUploadProgressLive(false);
      // `active` means socket.io is reconnecting by itself (not a server-side refusal).
      useChat.getState().setSocketState(socket.active ? 'connecting' : 'disconnected');
    });

    socket.on('connect_error', (error) => {
      const { kind } = classifyConnectError(error);
      const state = useChat.getState();
      if (kind === 'protocol') {
        state.setProtocolMismatch();
        state.setSocketState('disconnected');
        return;
      }
      if (kind === 'auth') {
        state.setSocketState('disconnected');
        if (refreshedForThisAttempt) return;
        refreshedForThisAttempt = true;
        void api.refreshSession().then((ok) => {
          // A failed refresh clears the session; the route guard then shows /login.
          if (ok && !disposed) {
            state.setSocketState('connecting');
            socket.connect();
          }
        });
        return;
      }
      state.setSocketState(socket.active ? 'connecting' : 'disconnected');
    });

    // Every server event goes through its protocol schema, then into the store's reducer.
    for (const name of Object.values<ServerEventName>(ServerEvent)) {
      const schema = serverEvents[name];
      // One generic listener for every event; socket.io's typings need each name's own signature.
      const listener = (payload: unknown) => {
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          console.warn('Ignoring malformed server event', name, parsed.error.issues);
          return;
        }
        useChat.getState().handleServerEvent({ name, payload: parsed.data } as ChatServerEvent);
        if (name === ServerEvent.usageUpdated) useUsage.getState().applyLive(parsed.data as UsageUpdated);
        if (name === ServerEvent.uploadProgress) publishUploadProgress(parsed.data as UploadProgress);
      };
      socket.on(name, listener);
    }

    // The browser knows when the network is gone before socket.io's ping times out: drop the
    // socket at once (spec §4: offline blocks sending) and reconnect when it is back.
    const onOffline = () => {
      socket.disconnect();
      useChat.getState().setSocketState('disconnected');
    };
    const onOnline = () => {
      if (socket.connected || disposed) return;
      useChat.getState().setSocketState('connecting');
      socket.connect();
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);

    chat.setSocketState('connecting');
    socket.connect();

    return () => {
      disposed = true;
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      useChat.getState().setTransport(null);
      socket.removeAllListeners();
      socket.disconnect();
      setUploadProgressLive(false);
    };
  }, []);
}
