import type { ChatReply, Message, User } from '@alma/protocol';

/** Test data shared by the client's unit tests. */

/** A signed-in user of the free plan who speaks Spanish. */
export const testUser: User = {
  id: 'u1',
  name: 'Ana',
  email: 'ana@example.com',
  bio: '',
  language: 'es',
  theme: 'dark',
  emailNotifications: true,
  pushNotifications: true,
  plan: 'free',
  role: 'user',
  avatar: null,
  stripeCustomerId: null,
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

/** A stored, complete message: by default the user's "Hola" in session s-new. */
export function testMessage(overrides: Partial<Message> = {}): Message {
  return {
    _id: 'm-user',
    sessionId: 's-new',
    role: 'user',
    content: 'Hola',
    createdAt: '2025-01-01T10:00:00.000Z',
    clientMessageId: null,
    replyTo: null,
    emotion: null,
    emotionAnalysis: null,
    language: 'es',
    userLanguage: 'es',
    personality: 'default',
    audioUrl: null,
    isComplete: true,
    ...overrides,
  };
}

/** The whole reply `POST /message` answers (spec §7): by default "¡Hola! ¿Qué tal?" in s-new. */
export function testChatReply(overrides: Partial<ChatReply> = {}): ChatReply {
  const sessionId = overrides.sessionId ?? 's-new';
  return {
    reply: '¡Hola! ¿Qué tal?',
    emotion: 'happy',
    emotionalState: { emotion: 'happy', intensity: 0.6, mood: 'warm' },
    animationIntent: { shouldAnimate: false, gesture: null, emotion: 'happy', context: { duration: 3000 } },
    language: 'es',
    userLanguage: 'es',
    audioUrl: null,
    emotionAnalysis: { emotion: 'happy', intensity: 0.6, confidence: 0.8 },
    personality: 'default',
    sessionContext: {
      sessionId,
      summary: '',
      topics: [],
      entities: { names: [] },
      keyPoints: [],
      dominantEmotion: null,
    },
    sessionId,
    messageId: 'm-bot',
    userMessageId: 'm-user',
    isComplete: true,
    ...overrides,
  };
}
