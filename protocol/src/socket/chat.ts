import { z } from 'zod';
import {
  ChatReplySchema,
  ChatSessionSchema,
  EmotionSchema,
  GestureSchema,
  LanguageSchema,
  MessageSchema,
  MoodSchema,
  PersonalitySchema,
} from '../entities.ts';
import { ErrorBodySchema } from '../errors.ts';
import { ServerStatusSchema, EnginesSchema } from '../rest/health.ts';
import { ClientMessageIdSchema, IdSchema, MessageTextSchema } from '../rest/chat.ts';

/** Binary payloads arrive as Buffer in Node and as ArrayBuffer in the browser. */
const BinarySchema = z.custom<Uint8Array | ArrayBuffer>(
  (value) => value instanceof Uint8Array || value instanceof ArrayBuffer,
  { message: 'invalid' },
);

// ── client → server ────────────────────────────────────────────────────────────────────────

export const ChatSendSchema = z.object({
  clientMessageId: ClientMessageIdSchema,
  sessionId: IdSchema.optional(),
  message: MessageTextSchema,
  personality: PersonalitySchema.optional(),
  voiceId: z.string().max(64, 'invalid').optional(),
  /** The avatar on screen; stored with the message and its reply (SPEC.md C-13). */
  avatarId: z.string().max(64, 'invalid').optional(),
});
export const ChatSendResultSchema = z.object({
  message: MessageSchema,
  sessionId: z.string(),
  replyId: z.string(),
  /** True when this clientMessageId had been stored before (SPEC.md C-2). */
  duplicate: z.boolean(),
});

export const ChatVoiceSchema = z.object({
  clientMessageId: ClientMessageIdSchema,
  sessionId: IdSchema.optional(),
  audio: BinarySchema,
  mimeType: z.string().min(1, 'required').max(100, 'invalid'),
  durationMs: z
    .number()
    .int()
    .nonnegative()
    .max(10 * 60 * 1000, 'tooLong'),
  transcriptHint: z.string().max(4000, 'tooLong').optional(),
  /** The language spoken in the note (the app's language); default: the handshake's Accept-Language. */
  language: LanguageSchema.optional(),
  personality: PersonalitySchema.optional(),
  voiceId: z.string().max(64, 'invalid').optional(),
  /** The avatar on screen, stored with the note and its reply like a typed send's (SPEC.md C-13). */
  avatarId: z.string().max(64, 'invalid').optional(),
});

export const ChatCancelSchema = z.object({
  replyId: IdSchema,
  heardUntilMs: z.number().nonnegative().optional(),
});
export const ChatCancelResultSchema = z.object({ cancelled: z.boolean() });

export const SessionWatchSchema = z.object({ sessionId: IdSchema });
export const SessionWatchResultSchema = z.object({ sessionId: z.string() });

// ── server → client ────────────────────────────────────────────────────────────────────────

export const ServerStatusEventSchema = z.object({
  status: ServerStatusSchema,
  version: z.string(),
  protocolVersion: z.number().int(),
  engines: EnginesSchema,
});

export const ChatMessageEventSchema = z.object({ message: MessageSchema });

export const ChatTranscriptionSchema = z.object({
  clientMessageId: z.string(),
  progress: z.number().min(0).max(100),
  text: z.string().optional(),
});

/** Every event of one reply carries `replyId` and `seq` (SPEC.md C-4). */
const ReplyEvent = z.object({
  replyId: z.string(),
  sessionId: z.string(),
  seq: z.number().int().nonnegative(),
});

export const ChatTypingSchema = ReplyEvent.extend({ typing: z.boolean() });
export const ChatDeltaSchema = ReplyEvent.extend({ text: z.string() });
export const ChatEmotionSchema = ReplyEvent.extend({
  emotion: EmotionSchema,
  intensity: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  mood: MoodSchema,
});
export const AvatarIntentSchema = ReplyEvent.extend({
  gesture: GestureSchema.nullable(),
  emotion: EmotionSchema,
  shouldAnimate: z.boolean(),
  duration: z.number().positive(),
  /** Offset in the reply's speech timeline where the gesture starts. */
  atMs: z.number().nonnegative(),
});
export const VisemeSchema = z.object({ t: z.number(), v: z.string(), w: z.number() });
export const SpeechChunkSchema = ReplyEvent.extend({
  text: z.string(),
  mimeType: z.string(),
  audio: BinarySchema,
  durationMs: z.number().nonnegative(),
  visemes: z.array(VisemeSchema),
  words: z.array(z.object({ t: z.number(), text: z.string() })),
});
export const ChatReplyEventSchema = ReplyEvent.extend({
  clientMessageId: z.string().nullable(),
  message: MessageSchema,
  reply: ChatReplySchema,
  /**
   * Present when a spoken reply was not voiced to the end (SPEC.md S-3, S-10): `busy` — the
   * server could not voice it in time and it went on as text; `failed` — synthesis failed.
   */
  speech: z.enum(['busy', 'failed']).optional(),
});
export const ChatErrorSchema = ErrorBodySchema.extend({
  clientMessageId: z.string().optional(),
  replyId: z.string().optional(),
  sessionId: z.string().optional(),
  seq: z.number().int().nonnegative().optional(),
  retryable: z.boolean(),
});

export const UsageUpdatedSchema = z.object({
  messagesThisMonth: z.number().int().nonnegative(),
  messagesLimit: z.number().int().positive().nullable(),
  voiceMinutesThisMonth: z.number().nonnegative(),
  voiceMinutesLimit: z.number().positive().nullable(),
});
export const LimitReachedSchema = z.object({
  kind: z.enum(['messages', 'voiceMinutes']),
  used: z.number().nonnegative(),
  limit: z.number().nonnegative(),
  message: z.string(),
});

export const SessionUpdatedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('created'), session: ChatSessionSchema }),
  z.object({ kind: z.literal('renamed'), session: ChatSessionSchema }),
  z.object({ kind: z.literal('deleted'), sessionId: z.string() }),
]);

export const UploadProgressSchema = z.object({
  kind: z.enum(['avatar', 'voice']),
  id: z.string(),
  status: z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']),
  progress: z.number().min(0).max(100),
  step: z.string(),
  error: z.object({ message: z.string(), details: z.array(z.string()).optional() }).optional(),
});
export type UploadProgress = z.infer<typeof UploadProgressSchema>;

export const SocketAckErrorSchema = z.object({ ok: z.literal(false), error: ErrorBodySchema });
