import type { Ack, ClientEvent, ClientPayload, ClientResult } from '@alma/protocol';

/**
 * How the conversation reaches the server. Two transports with one shape (ARCHITECTURE §2): the
 * socket (`chat:send`, `chat:voice`, acked, the reply streamed as events) and the REST fallback
 * (`POST /message`, `POST /message-audio`, which answer with the whole reply). Both resolve with
 * `chat:send`'s acknowledgement and never reject; the REST one then delivers its reply as the
 * `chat:reply` event a socket would have sent, so the same reducer handles both.
 */
export type ChatSendPayload = ClientPayload<typeof ClientEvent.chatSend>;
export type ChatSendAck = Ack<ClientResult<typeof ClientEvent.chatSend>>;

/** `chat:voice`'s payload with the recording as a Blob (each transport encodes it its own way). */
export type VoiceSendPayload = Omit<ClientPayload<typeof ClientEvent.chatVoice>, 'audio'> & {
  audio: Blob;
};

export interface ChatTransport {
  readonly kind: 'socket' | 'rest';
  send: (payload: ChatSendPayload) => Promise<ChatSendAck>;
  /** A voice note (SPEC.md V-1); acked like chat:send. */
  voice: (payload: VoiceSendPayload) => Promise<ChatSendAck>;
  /** `chat:cancel` (SPEC.md C-7, S-2): resolves once the server has ended the reply. REST cannot. */
  cancel: (payload: ClientPayload<typeof ClientEvent.chatCancel>) => Promise<void>;
  /** Follows a session's events (other tabs, other devices); nothing to do over REST. */
  watch: (sessionId: string) => void;
}
