import { ClientEvent, ServerEvent } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import { sessionRoom } from '../../realtime/publisher.ts';
import type { SocketHandlers } from '../../realtime/socket-server.ts';
import type { VoiceNotesService } from '../voice-notes/voice-notes.service.ts';
import type { ChatService } from './chat.service.ts';

/**
 * chat:send → the message is stored, then acked (SPEC.md C-1), then the reply streams to the
 * session's room, which the sender has joined before the ack.
 */
export function chatSocketHandlers(deps: {
  chat: ChatService;
  voiceNotes?: VoiceNotesService;
}): SocketHandlers {
  const { chat, voiceNotes } = deps;
  return (on) => {
    on(ClientEvent.chatSend, async (payload, { socket, userId }) => {
      const sent = await chat.send(userId, { ...payload, originSocketId: socket.id });
      await socket.join(sessionRoom(sent.session.sessionId));
      const handle = await chat.ensureReply(userId, sent.message, {
        personality: payload.personality ?? sent.session.personality,
        voiceId: payload.voiceId,
        avatarId: payload.avatarId,
      });
      if (handle.alreadyStored) {
        // A retried send whose reply was stored already: hand that reply to this socket only.
        void handle.done.then((outcome) => {
          if (outcome.kind !== 'stored') return;
          socket.emit(ServerEvent.chatReply, {
            replyId: handle.replyId,
            sessionId: sent.session.sessionId,
            seq: 0,
            clientMessageId: sent.message.clientMessageId,
            message: outcome.message,
            reply: outcome.reply,
          });
        });
      }
      return {
        message: sent.message,
        sessionId: sent.session.sessionId,
        replyId: handle.replyId,
        duplicate: sent.duplicate,
      };
    });

    /**
     * chat:voice (SPEC.md V-1…V-6): decoded, transcribed (`chat:transcription` progress to the
     * sender), stored as a user message with its audio, acked like chat:send, then replied to.
     */
    on(ClientEvent.chatVoice, async (payload, { socket, userId, language }) => {
      if (!voiceNotes) throw new AppError('transcription_not_configured');
      const audio = payload.audio instanceof Uint8Array ? payload.audio : new Uint8Array(payload.audio);
      const sent = await voiceNotes.submit(
        userId,
        { ...payload, audio, language: payload.language ?? language, originSocketId: socket.id },
        (event) =>
          socket.emit(ServerEvent.chatTranscription, { clientMessageId: payload.clientMessageId, ...event }),
      );
      await socket.join(sessionRoom(sent.session.sessionId));
      const handle = await chat.ensureReply(userId, sent.message, {
        personality: payload.personality ?? sent.session.personality,
        voiceId: payload.voiceId,
      });
      return {
        message: sent.message,
        sessionId: sent.session.sessionId,
        replyId: handle.replyId,
        duplicate: sent.duplicate,
      };
    });

    on(ClientEvent.chatCancel, async (payload, { userId }) => ({
      cancelled: await chat.cancel(userId, payload.replyId, payload.heardUntilMs),
    }));

    on(ClientEvent.sessionWatch, async (payload, { socket, userId }) => {
      await chat.listMessages(userId, payload.sessionId, 1, 1); // ownership check: not_found otherwise
      await socket.join(sessionRoom(payload.sessionId));
      return { sessionId: payload.sessionId };
    });
  };
}
