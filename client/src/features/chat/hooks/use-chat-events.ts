import { useEffect } from 'react';
import { ServerEvent } from '@alma/protocol';
import { onServerEvents, useConnection } from '../../../lib/realtime.ts';
import { useConversation } from '../store/conversation.ts';
import { useSessions } from '../store/sessions.ts';
import { pickTransport } from '../transport/pick.ts';

/** The server events the chat listens to (the rest belong to the app or other features). */
export const CHAT_EVENTS = [
  ServerEvent.chatMessage,
  ServerEvent.chatTranscription,
  ServerEvent.chatTyping,
  ServerEvent.chatDelta,
  ServerEvent.chatEmotion,
  ServerEvent.avatarIntent,
  ServerEvent.speechChunk,
  ServerEvent.chatReply,
  ServerEvent.chatError,
  ServerEvent.limitReached,
  ServerEvent.sessionUpdated,
] as const;

/**
 * The one hook that feeds the realtime bus to the chat's stores (STYLE.md): the conversation,
 * then the session list. The socket belongs to app/ (it outlives this page); when it comes back
 * after a drop, the open session is followed again (`session:watch`).
 */
export function useChatEvents(): void {
  useEffect(() => {
    const off = onServerEvents(CHAT_EVENTS, (event) => {
      useConversation.getState().handleEvent(event);
      useSessions.getState().handleEvent(event);
    });
    const offConnection = useConnection.subscribe((state, previous) => {
      if (state.socketState !== 'connected' || previous.socketState === 'connected') return;
      const sessionId = useConversation.getState().activeSessionId;
      if (sessionId) pickTransport().watch(sessionId);
    });
    return () => {
      offConnection();
      off();
    };
  }, []);
}
