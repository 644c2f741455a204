import type { Message, User } from '@alma/protocol';

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
