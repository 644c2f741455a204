import { z } from 'zod';
import {
  ChatExportSchema,
  ChatReplySchema,
  ChatSessionSchema,
  MessageSchema,
  PersonalityInfoSchema,
  PersonalitySchema,
  SessionContextSchema,
  SessionTitleSchema,
} from '../entities.ts';
import {
  CLIENT_MESSAGE_ID_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  MESSAGE_PAGE_SIZE,
  MESSAGE_PAGE_SIZE_MAX,
  PERSONALITIES,
} from '../constants.ts';
import { defineRoute } from './define-route.ts';

export const IdSchema = z.string({ error: 'required' }).min(1, 'required').max(64, 'invalid');
export const ClientMessageIdSchema = z
  .string({ error: 'required' })
  .min(1, 'required')
  .max(CLIENT_MESSAGE_ID_MAX_LENGTH, 'invalid')
  .regex(/^[\w-]+$/, 'invalid');

/** Text a user sends: trimmed, not empty (spec §5 Chat). */
export const MessageTextSchema = z
  .string({ error: 'messageRequired' })
  .trim()
  .min(1, 'messageRequired')
  .max(MESSAGE_MAX_LENGTH, 'tooLong');

export const SendMessageBodySchema = z.object({
  message: MessageTextSchema,
  sessionId: IdSchema.optional(),
  personality: PersonalitySchema.optional(),
  voiceId: z.string().max(64, 'invalid').optional(),
  /** The avatar on screen, stored with the message and its reply for the export (SPEC.md C-13). */
  avatarId: z.string().max(64, 'invalid').optional(),
  clientMessageId: ClientMessageIdSchema.optional(),
});

const SessionParams = z.object({ id: IdSchema });

export const MessagesPageSchema = z.object({
  items: z.array(MessageSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  hasMore: z.boolean(),
});
export type MessagesPage = z.infer<typeof MessagesPageSchema>;

const Ok = z.object({ success: z.literal(true) });

export const chatRoutes = {
  listSessions: defineRoute({
    method: 'GET',
    path: '/chat/sessions',
    auth: true,
    response: z.object({ sessions: z.array(ChatSessionSchema) }),
  }),
  createSession: defineRoute({
    method: 'POST',
    path: '/chat/sessions',
    auth: true,
    body: z.object({ title: SessionTitleSchema.optional() }).optional(),
    status: 201,
    response: z.object({ session: ChatSessionSchema }),
  }),
  renameSession: defineRoute({
    method: 'POST',
    path: '/chat/sessions/:id/title',
    auth: true,
    params: SessionParams,
    body: z.object({ title: SessionTitleSchema.min(1, 'required') }),
    response: z.object({ session: ChatSessionSchema }),
  }),
  deleteSession: defineRoute({
    method: 'DELETE',
    path: '/chat/sessions/:id',
    auth: true,
    params: SessionParams,
    response: Ok,
  }),
  /**
   * History, newest page first: page 1 holds the latest `pageSize` messages, page 2 the ones
   * before them. Within a page items are oldest first, ready to prepend (SPEC.md C-6).
   */
  listMessages: defineRoute({
    method: 'GET',
    path: '/chat/messages',
    auth: true,
    query: z.object({
      sessionId: IdSchema,
      page: z.coerce.number({ error: 'invalid' }).int('invalid').min(1, 'invalid').default(1),
      pageSize: z.coerce
        .number({ error: 'invalid' })
        .int('invalid')
        .min(1, 'invalid')
        .max(MESSAGE_PAGE_SIZE_MAX, 'invalid')
        .default(MESSAGE_PAGE_SIZE),
    }),
    response: MessagesPageSchema,
  }),
  sendMessage: defineRoute({
    method: 'POST',
    path: '/message',
    auth: true,
    body: SendMessageBodySchema,
    response: ChatReplySchema,
  }),
  /** A title from the first user message's topic, in its language (SPEC.md C-12). */
  autoTitle: defineRoute({
    method: 'POST',
    path: '/chat/sessions/:id/auto-title',
    auth: true,
    params: SessionParams,
    response: z.object({ title: z.string() }),
  }),
  /** The stored conversation context, for a session opened before any reply arrives (C-11). */
  sessionContext: defineRoute({
    method: 'GET',
    path: '/chat/sessions/:id/context',
    auth: true,
    params: SessionParams,
    response: SessionContextSchema,
  }),
  /** A JSON download (`Content-Disposition: attachment`) of the whole session (SPEC.md C-13). */
  exportSession: defineRoute({
    method: 'GET',
    path: '/chat/export/:id',
    auth: true,
    params: SessionParams,
    response: ChatExportSchema,
  }),
  /** Stores the session's personality and confirms it with a system message (SPEC.md C-14). */
  changePersonality: defineRoute({
    method: 'POST',
    path: '/personality',
    auth: true,
    body: z.object({ sessionId: IdSchema, personality: PersonalitySchema }),
    response: z.object({
      success: z.literal(true),
      personality: PersonalitySchema,
      message: MessageSchema,
    }),
  }),
  /** The four built-in personalities, described in the caller's language (Accept-Language). */
  listPersonalities: defineRoute({
    method: 'GET',
    path: '/personalities',
    auth: false,
    response: z.object({
      personalities: z.object(
        Object.fromEntries(PERSONALITIES.map((key) => [key, PersonalityInfoSchema])) as Record<
          (typeof PERSONALITIES)[number],
          typeof PersonalityInfoSchema
        >,
      ),
    }),
  }),
  /** Spec §7's other name for deleting a chat session (same handler as `deleteSession`). */
  deleteSessionAlias: defineRoute({
    method: 'DELETE',
    path: '/session/:sessionId',
    auth: true,
    params: z.object({ sessionId: IdSchema }),
    response: Ok,
  }),
};
