import { ClientEvent, ServerEvent, type ClientResult } from '@alma/protocol';
import { AppError } from '../../lib/app-error.ts';
import { sessionRoom } from '../../realtime/publisher.ts';
import type { AlmaSocket, SocketHandlers } from '../../realtime/socket-server.ts';
import type { VoiceNotesService } from '../voice-notes/voice-notes.service.ts';
import type { ReplyRegistry } from './reply-registry.ts';
import type { SessionsService } from './sessions.service.ts';
import type { SubmitOptions, SubmitService, Submitted } from './submit.service.ts';

/**
 * The sender is the message's origin: no `chat:message` echo, it follows the session's room, and
 * the reply streams as soon as the ack has left (C-1).
 */
function originOf(socket: AlmaSocket, acked: Promise<void>): SubmitOptions {
  return {
    originSocketId: socket.id,
    acked,
    onStored: async (sent) => {
      await socket.join(sessionRoom(sent.session.sessionId));
    },
  };
}

/**
 * chat:send and chat:voice ack what `submit` stored (C-1). A retried send whose reply was stored
 * already gets that reply again, on this socket only (C-2).
 */
function ackFor(socket: AlmaSocket, sent: Submitted): ClientResult<'chat:send'> {
  const { reply } = sent;
  if (reply.alreadyStored) {
    void reply.done.then((outcome) => {
      if (outcome.kind !== 'stored') return;
      socket.emit(ServerEvent.chatReply, {
        replyId: reply.replyId,
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
    replyId: reply.replyId,
    duplicate: sent.duplicate,
  };
}

/** The chat's socket edge: parse (done by the wrapper), call the service, map the result. */
export function chatSocketHandlers(deps: {
  chat: SubmitService;
  sessions: SessionsService;
  replies: ReplyRegistry;
  voiceNotes?: VoiceNotesService;
}): SocketHandlers {
  const { chat, sessions, replies, voiceNotes } = deps;
  return (on) => {
    on(ClientEvent.chatSend, async (payload, { socket, userId, acked }) =>
      ackFor(socket, await chat.submit(userId, payload, originOf(socket, acked))),
    );

    /**
     * chat:voice (SPEC.md V-1…V-6): decoded, transcribed (`chat:transcription` progress to the
     * sender), then submitted like chat:send.
     */
    on(ClientEvent.chatVoice, async (payload, { socket, userId, language, acked }) => {
      if (!voiceNotes) throw new AppError('transcription_not_configured');
      const audio = payload.audio instanceof Uint8Array ? payload.audio : new Uint8Array(payload.audio);
      const sent = await voiceNotes.submit(
        userId,
        { ...payload, audio, language: payload.language ?? language },
        (event) =>
          socket.emit(ServerEvent.chatTranscription, { clientMessageId: payload.clientMessageId, ...event }),
        originOf(socket, acked),
      );
      return ackFor(socket, sent);
    });

    on(ClientEvent.chatCancel, async (payload, { userId }) => ({
      cancelled: await replies.cancel(userId, payload.replyId, payload.heardUntilMs),
    }));

    on(ClientEvent.sessionWatch, async (payload, { socket, userId }) => {
      await sessions.own(userId, payload.sessionId); // not_found for another user's session
      await socket.join(sessionRoom(payload.sessionId));
      return { sessionId: payload.sessionId };
    });
  };
}
