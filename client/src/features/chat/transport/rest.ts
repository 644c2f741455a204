import { routes, ServerEvent, type ChatReply, type ErrorBody, type Message } from '@alma/protocol';
import { ApiError, call } from '../../../lib/api.ts';
import { publishServerEvent } from '../../../lib/realtime.ts';
import { postVoiceNote } from './voice-rest.ts';
import type { ChatSendAck, ChatTransport } from './types.ts';

/**
 * The REST fallback (ARCHITECTURE §2) for when no socket is connected (a proxy that drops
 * websockets, a socket still reconnecting): `POST /message` and `POST /message-audio` answer with
 * the whole reply. It acknowledges like the socket — the stored user message, the session, the
 * reply's id — and then delivers the reply as the `chat:reply` event the socket would have sent,
 * on the realtime bus, after the ack (the socket's order, SPEC.md C-1).
 */
export function createRestTransport(deps: RestTransportDeps = defaultDeps): ChatTransport {
  function deliver(reply: ChatReply, clientMessageId: string | null, userMessageId: string): void {
    const message: Message = {
      _id: reply.messageId,
      sessionId: reply.sessionId,
      role: 'assistant',
      content: reply.reply,
      createdAt: new Date().toISOString(),
      clientMessageId: null,
      replyTo: userMessageId,
      emotion: reply.emotion,
      emotionAnalysis: reply.emotionAnalysis,
      language: reply.language,
      userLanguage: reply.userLanguage,
      personality: reply.personality,
      // The reply's spoken audio, to play again from the message (issue 11: it was dropped here).
      audioUrl: reply.audioUrl,
      isComplete: reply.isComplete,
    };
    const event = {
      replyId: reply.messageId,
      sessionId: reply.sessionId,
      seq: 0,
      clientMessageId,
      message,
      reply,
    };
    setTimeout(() => deps.publish(event), 0);
  }

  return {
    kind: 'rest',
    send: async (payload) => {
      let reply: ChatReply;
      try {
        reply = await deps.sendMessage({
          message: payload.message,
          clientMessageId: payload.clientMessageId,
          ...(payload.sessionId ? { sessionId: payload.sessionId } : {}),
          ...(payload.personality ? { personality: payload.personality } : {}),
          ...(payload.voiceId ? { voiceId: payload.voiceId } : {}),
          ...(payload.avatarId ? { avatarId: payload.avatarId } : {}),
        });
      } catch (error) {
        return { ok: false, error: ackError(error) };
      }
      const userMessage: Message = {
        _id: reply.userMessageId,
        sessionId: reply.sessionId,
        role: 'user',
        content: payload.message.trim(),
        createdAt: new Date().toISOString(),
        clientMessageId: payload.clientMessageId,
        replyTo: null,
        emotion: null,
        emotionAnalysis: null,
        language: reply.userLanguage,
        userLanguage: reply.userLanguage,
        personality: reply.personality,
        audioUrl: null,
        isComplete: true,
      };
      deliver(reply, payload.clientMessageId, reply.userMessageId);
      return ack(userMessage, reply);
    },
    voice: async (payload) => {
      try {
        const reply = await deps.postVoice(payload);
        deliver(reply, payload.clientMessageId, reply.userMessage._id);
        return ack(reply.userMessage, reply);
      } catch (error) {
        return { ok: false, error: ackError(error) };
      }
    },
    // A REST send cannot be stopped once posted: the reply comes with its answer.
    cancel: () => Promise.resolve(),
    watch: () => undefined,
  };
}

function ack(message: Message, reply: ChatReply): ChatSendAck {
  return {
    ok: true,
    data: { message, sessionId: reply.sessionId, replyId: reply.messageId, duplicate: false },
  };
}

/**
 * A failed call as a socket ack's error: no answer (network, time-out) is `unavailable` like a
 * missing ack; an unreadable answer is a `server_error`; otherwise the server's code and text.
 */
export function ackError(error: unknown): ErrorBody {
  if (!(error instanceof ApiError)) return { code: 'server_error', message: '' };
  const { code } = error;
  if (code === 'network_error' || code === 'timeout')
    return { code: 'unavailable', message: error.displayMessage };
  return { code: code === 'invalid_response' ? 'server_error' : code, message: error.displayMessage };
}

export interface RestTransportDeps {
  sendMessage: (
    body: Parameters<typeof call<typeof routes.chat.sendMessage>>[1]['body'],
  ) => Promise<ChatReply>;
  postVoice: typeof postVoiceNote;
  publish: (payload: Parameters<typeof publishServerEvent<typeof ServerEvent.chatReply>>[1]) => void;
}

const defaultDeps: RestTransportDeps = {
  sendMessage: (body) => call(routes.chat.sendMessage, { body }),
  postVoice: (payload) => postVoiceNote(payload),
  publish: (event) => publishServerEvent(ServerEvent.chatReply, event),
};
