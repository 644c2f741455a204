import { z } from 'zod';
import { ErrorBodySchema } from '../errors.ts';
import {
  AvatarIntentSchema,
  ChatCancelResultSchema,
  ChatCancelSchema,
  ChatDeltaSchema,
  ChatEmotionSchema,
  ChatErrorSchema,
  ChatMessageEventSchema,
  ChatReplyEventSchema,
  ChatSendResultSchema,
  ChatSendSchema,
  ChatTranscriptionSchema,
  ChatTypingSchema,
  ChatVoiceSchema,
  LimitReachedSchema,
  ServerStatusEventSchema,
  SessionUpdatedSchema,
  SessionWatchResultSchema,
  SessionWatchSchema,
  SpeechChunkSchema,
  UploadProgressSchema,
  UsageUpdatedSchema,
} from './chat.ts';
import { AuthRevokedSchema } from './auth.ts';

/**
 * The socket contract (ARCHITECTURE §2). Event names live only here: code elsewhere uses
 * `ClientEvent.*` / `ServerEvent.*`, never string literals.
 */
export const clientEvents = {
  'chat:send': { payload: ChatSendSchema, result: ChatSendResultSchema },
  'chat:voice': { payload: ChatVoiceSchema, result: ChatSendResultSchema },
  'chat:cancel': { payload: ChatCancelSchema, result: ChatCancelResultSchema },
  'session:watch': { payload: SessionWatchSchema, result: SessionWatchResultSchema },
} as const;

export const serverEvents = {
  'server:status': ServerStatusEventSchema,
  'chat:message': ChatMessageEventSchema,
  'chat:transcription': ChatTranscriptionSchema,
  'chat:typing': ChatTypingSchema,
  'chat:delta': ChatDeltaSchema,
  'chat:emotion': ChatEmotionSchema,
  'avatar:intent': AvatarIntentSchema,
  'speech:chunk': SpeechChunkSchema,
  'chat:reply': ChatReplyEventSchema,
  'chat:error': ChatErrorSchema,
  'usage:updated': UsageUpdatedSchema,
  'limit:reached': LimitReachedSchema,
  'session:updated': SessionUpdatedSchema,
  'upload:progress': UploadProgressSchema,
  'auth:revoked': AuthRevokedSchema,
} as const;

export type ClientEventName = keyof typeof clientEvents;
export type ServerEventName = keyof typeof serverEvents;

export const ClientEvent = {
  chatSend: 'chat:send',
  chatVoice: 'chat:voice',
  chatCancel: 'chat:cancel',
  sessionWatch: 'session:watch',
} as const satisfies Record<string, ClientEventName>;

export const ServerEvent = {
  serverStatus: 'server:status',
  chatMessage: 'chat:message',
  chatTranscription: 'chat:transcription',
  chatTyping: 'chat:typing',
  chatDelta: 'chat:delta',
  chatEmotion: 'chat:emotion',
  avatarIntent: 'avatar:intent',
  speechChunk: 'speech:chunk',
  chatReply: 'chat:reply',
  chatError: 'chat:error',
  usageUpdated: 'usage:updated',
  limitReached: 'limit:reached',
  sessionUpdated: 'session:updated',
  uploadProgress: 'upload:progress',
  authRevoked: 'auth:revoked',
} as const satisfies Record<string, ServerEventName>;

/** Server events that belong to one reply and carry its `seq` (SPEC.md C-4). */
export const REPLY_EVENTS = [
  'chat:typing',
  'chat:delta',
  'chat:emotion',
  'avatar:intent',
  'speech:chunk',
  'chat:reply',
  'chat:error',
] as const satisfies readonly ServerEventName[];

export type ClientPayload<E extends ClientEventName> = z.input<(typeof clientEvents)[E]['payload']>;
export type ClientPayloadParsed<E extends ClientEventName> = z.output<(typeof clientEvents)[E]['payload']>;
export type ClientResult<E extends ClientEventName> = z.output<(typeof clientEvents)[E]['result']>;
export type ServerPayload<E extends ServerEventName> = z.output<(typeof serverEvents)[E]>;

/** Every client request is acknowledged with this; errors have the REST error shape. */
export type Ack<T> = { ok: true; data: T } | { ok: false; error: z.infer<typeof ErrorBodySchema> };

/** socket.io's generic event maps, derived from the schemas above. */
export type ClientToServerEvents = {
  [E in ClientEventName]: (payload: ClientPayload<E>, ack: (result: Ack<ClientResult<E>>) => void) => void;
};
export type ServerToClientEvents = {
  [E in ServerEventName]: (payload: ServerPayload<E>) => void;
};

/** What the client sends in `socket.handshake.auth` (SPEC.md P-1, P-2). */
export const HandshakeAuthSchema = z.object({
  token: z.string().min(1).max(4096),
  protocolVersion: z.number().int(),
});
export type HandshakeAuth = z.infer<typeof HandshakeAuthSchema>;

/** `connect_error` data the server attaches when it refuses a connection. */
export const ConnectErrorDataSchema = ErrorBodySchema;
