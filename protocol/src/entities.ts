import { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMOTIONS,
  GESTURES,
  LANGUAGES,
  MOOD_BY_EMOTION,
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PERSONALITIES,
  PLANS,
  SESSION_TITLE_MAX_LENGTH,
  THEMES,
} from './constants.ts';

/**
 * Entity and field schemas shared by REST routes and socket events. Validation messages are
 * field codes (see messages.ts), so one schema gives both ends the spec's texts.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const LanguageSchema = z.enum(LANGUAGES);
export const ThemeSchema = z.enum(THEMES);
export const PersonalitySchema = z.enum(PERSONALITIES);
export const EmotionSchema = z.enum(EMOTIONS);
export const GestureSchema = z.enum(GESTURES);
export const PlanSchema = z.enum(PLANS);
export const MoodSchema = z.enum(
  Object.values(MOOD_BY_EMOTION) as [
    (typeof MOOD_BY_EMOTION)[keyof typeof MOOD_BY_EMOTION],
    ...(typeof MOOD_BY_EMOTION)[keyof typeof MOOD_BY_EMOTION][],
  ],
);
export const RoleSchema = z.enum(['user', 'admin']);

/** Login: spec §5 — required and a simple address pattern. */
export const LoginEmailSchema = z
  .string({ error: 'emailRequired' })
  .trim()
  .min(1, 'emailRequired')
  .max(EMAIL_MAX_LENGTH, 'tooLong')
  .regex(EMAIL_PATTERN, 'emailInvalid')
  .transform((email) => email.toLowerCase());

/** Registration step 1 uses the same rule with its own text ("Email is not valid"). */
export const RegisterEmailSchema = z
  .string({ error: 'emailRequired' })
  .trim()
  .min(1, 'emailRequired')
  .max(EMAIL_MAX_LENGTH, 'tooLong')
  .regex(EMAIL_PATTERN, 'emailNotValid')
  .transform((email) => email.toLowerCase());

export const LoginPasswordSchema = z
  .string({ error: 'passwordRequired' })
  .min(1, 'passwordRequired')
  .min(PASSWORD_MIN_LENGTH, 'passwordLength')
  .max(PASSWORD_MAX_LENGTH, 'tooLong');

/** Registration step 2: at least 6 characters with a lowercase, an uppercase and a digit. */
export const NewPasswordSchema = LoginPasswordSchema.regex(/[a-z]/, 'passwordComplexity')
  .regex(/[A-Z]/, 'passwordComplexity')
  .regex(/\d/, 'passwordComplexity');

export const NameSchema = z
  .string({ error: 'nameRequired' })
  .trim()
  .min(NAME_MIN_LENGTH, 'nameRequired')
  .max(NAME_MAX_LENGTH, 'tooLong');

export const UserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  bio: z.string().max(BIO_MAX_LENGTH),
  language: LanguageSchema,
  theme: ThemeSchema,
  emailNotifications: z.boolean(),
  pushNotifications: z.boolean(),
  plan: PlanSchema,
  role: RoleSchema,
  avatar: z.string().nullable(),
  stripeCustomerId: z.string().nullable(),
  /** Set once the address is confirmed through the emailed link or a provider that verified it. */
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const SessionTitleSchema = z
  .string({ error: 'required' })
  .trim()
  .max(SESSION_TITLE_MAX_LENGTH, 'tooLong');

export const ChatSessionSchema = z.object({
  sessionId: z.string(),
  title: z.string().nullable(),
  personality: PersonalitySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  /** The companion's dominant emotion in this session so far (SPEC.md C-11); null before a reply. */
  dominantEmotion: EmotionSchema.nullable(),
});
export type ChatSession = z.infer<typeof ChatSessionSchema>;

export const MessageRoleSchema = z.enum(['user', 'assistant', 'system']);
export type MessageRole = z.infer<typeof MessageRoleSchema>;

export const EmotionAnalysisSchema = z.object({
  emotion: EmotionSchema,
  intensity: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
});
export type EmotionAnalysis = z.infer<typeof EmotionAnalysisSchema>;

/** A stored message as the server returns it (spec §3 "Message (server)"). */
export const MessageSchema = z.object({
  _id: z.string(),
  sessionId: z.string(),
  role: MessageRoleSchema,
  content: z.string(),
  createdAt: z.string(),
  clientMessageId: z.string().nullable(),
  /** For a reply: the user message it answers. */
  replyTo: z.string().nullable(),
  emotion: EmotionSchema.nullable(),
  emotionAnalysis: EmotionAnalysisSchema.nullable(),
  language: LanguageSchema.nullable(),
  userLanguage: LanguageSchema.nullable(),
  personality: PersonalitySchema.nullable(),
  audioUrl: z.string().nullable(),
  /** False for a reply stopped before its end (cancel, shutdown). */
  isComplete: z.boolean(),
});
export type Message = z.infer<typeof MessageSchema>;

/** The conversation context (spec §3), stored per session and updated every exchange (SPEC.md C-11). */
export const SessionContextSchema = z.object({
  sessionId: z.string(),
  summary: z.string(),
  topics: z.array(z.string()),
  /** People the user named, the user's own name included. */
  entities: z.object({ names: z.array(z.string()) }),
  /** The latest points the user made, oldest first (at most `CONTEXT_KEY_POINTS_MAX`). */
  keyPoints: z.array(z.string()),
  dominantEmotion: EmotionSchema.nullable(),
});
export type SessionContext = z.infer<typeof SessionContextSchema>;

export const AnimationIntentSchema = z.object({
  shouldAnimate: z.boolean(),
  gesture: GestureSchema.nullable(),
  emotion: EmotionSchema,
  context: z.object({ duration: z.number().positive() }),
});
export type AnimationIntent = z.infer<typeof AnimationIntentSchema>;

/** The spec's chat reply (§3), as `POST /message` returns it and `chat:reply` carries it. */
export const ChatReplySchema = z.object({
  reply: z.string(),
  emotion: EmotionSchema,
  emotionalState: z.object({ emotion: EmotionSchema, intensity: z.number(), mood: MoodSchema }),
  animationIntent: AnimationIntentSchema,
  language: LanguageSchema,
  userLanguage: LanguageSchema,
  audioUrl: z.string().nullable(),
  emotionAnalysis: EmotionAnalysisSchema,
  personality: PersonalitySchema,
  sessionContext: SessionContextSchema,
  sessionId: z.string(),
  messageId: z.string(),
  userMessageId: z.string(),
  isComplete: z.boolean(),
});
export type ChatReply = z.infer<typeof ChatReplySchema>;

/** A built-in personality as `GET /personalities` describes it (spec §3 "Personality"). */
export const PersonalityInfoSchema = z.object({
  name: z.string(),
  personality: PersonalitySchema,
  style: z.string(),
  language: LanguageSchema,
  context: z.string(),
});
export type PersonalityInfo = z.infer<typeof PersonalityInfoSchema>;

/**
 * A message as the export holds it: the stored message plus what the send carried (voice, avatar)
 * and, for a reply, the animation intent it was played with (SPEC.md C-13).
 */
export const ExportedMessageSchema = MessageSchema.extend({
  animationIntent: AnimationIntentSchema.nullable(),
  voiceId: z.string().nullable(),
  avatarId: z.string().nullable(),
});
export type ExportedMessage = z.infer<typeof ExportedMessageSchema>;

/** `GET /chat/export/:id`: everything needed to replay a conversation (SPEC.md C-13). */
export const ChatExportSchema = z.object({
  format: z.literal('alma.chat-export'),
  version: z.literal(1),
  exportedAt: z.string(),
  session: ChatSessionSchema,
  context: SessionContextSchema,
  /** Oldest first. */
  messages: z.array(ExportedMessageSchema),
});
export type ChatExport = z.infer<typeof ChatExportSchema>;
