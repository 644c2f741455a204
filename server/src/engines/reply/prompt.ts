import type { Language, Personality } from '@alma/protocol';
import { SIDE_CHANNEL_RULE } from './side-channel.ts';
import type { ReplyContext, ReplyRequest } from './types.ts';

/**
 * What a language model is told, shared by the openai and local engines so both speak with the
 * same voices as the builtin engine: who Alma is, the personality, the language to answer in,
 * what is known of the conversation beyond the history window, and the side-channel rule for
 * emotion and gesture.
 */
const VOICE: Record<Personality, string> = {
  default:
    'Your voice is casual and warm: short, friendly sentences, like a good friend chatting. Ask a follow-up question when it helps.',
  formal:
    'Your voice is formal and courteous: complete, polite sentences, no slang, no emoji. In Spanish address the user as "usted".',
  creative:
    'Your voice is creative and playful: vivid images, gentle humour and metaphors, while still answering the point.',
  technical:
    'Your voice is technical and precise: clear structure, exact terms, steps or short lists when they help; no filler.',
};

const LANGUAGE_NAME: Record<Language, string> = { es: 'Spanish', en: 'English' };

export function systemPrompt(personality: Personality, language: Language, context?: ReplyContext): string {
  return [
    'You are Alma, an AI companion with a 3D avatar who talks with the user and answers aloud.',
    'Keep replies brief (a few sentences) because they are spoken. Remember what the user told you',
    'earlier in the conversation (their name, people, topics) and refer back to it. Never invent facts',
    'about the user; say plainly when you do not know something or cannot do it.',
    VOICE[personality],
    `Answer in ${LANGUAGE_NAME[language]}, the language of the user's last message.`,
    ...contextLines(context),
    '',
    SIDE_CHANNEL_RULE,
  ].join('\n');
}

/** The session's stored context, as notes; nothing when there is none yet. */
function contextLines(context: ReplyContext | undefined): string[] {
  if (!context) return [];
  const notes = [
    context.summary.trim() ? `Summary so far: ${context.summary.trim()}` : null,
    context.names.length > 0 ? `People mentioned (the user included): ${context.names.join(', ')}` : null,
    context.topics.length > 0 ? `Topics: ${context.topics.join(', ')}` : null,
    context.keyPoints.length > 0 ? `Key points: ${context.keyPoints.join(' | ')}` : null,
    context.dominantEmotion ? `The user's prevailing mood: ${context.dominantEmotion}` : null,
  ].filter((note): note is string => note !== null);
  return notes.length > 0
    ? ['', 'Notes on this conversation (may reach beyond the messages below):', ...notes]
    : [];
}

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/**
 * The conversation as chat messages: the system prompt, the history, then the user's message.
 * System messages of the history (notices such as a personality change) are left out: the system
 * prompt already states the current personality, and not every chat template accepts them mid-way.
 */
export function chatMessages(request: Omit<ReplyRequest, 'signal'>): ChatMessage[] {
  const history = request.history
    .filter((m) => m.role !== 'system' && m.content.trim() !== '')
    .map((m): ChatMessage => ({ role: m.role, content: m.content }));
  return [
    { role: 'system', content: systemPrompt(request.personality, request.language, request.context) },
    ...history,
    { role: 'user', content: request.text },
  ];
}
