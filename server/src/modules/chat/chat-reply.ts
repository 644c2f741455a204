import {
  ANIMATION_INTENT_DURATION_MS,
  DEFAULT_LANGUAGE,
  MOOD_BY_EMOTION,
  type AnimationIntent,
  type ChatReply,
  type Emotion,
  type Gesture,
  type Message,
  type SessionContext,
} from '@alma/protocol';
import type { ReplyContext } from '../../engines/reply/types.ts';
import type { SessionRepository, SessionState } from '../../storage/types.ts';
import type { ReplyOutcome } from './reply-types.ts';
import { toSessionContext } from './session-context.ts';

/** The animation intent a reply was played with, from its emotion and gesture (spec §3). */
export function animationIntentOf(emotion: Emotion, gesture: Gesture | null): AnimationIntent {
  return {
    shouldAnimate: gesture !== null || emotion !== 'neutral',
    gesture,
    emotion,
    context: { duration: ANIMATION_INTENT_DURATION_MS },
  };
}

/** The spec's chat reply for a stored reply message (`chat:reply.reply`, `POST /message`). */
export function chatReplyFrom(
  message: Message,
  userMessage: Message,
  gesture: Gesture | null,
  sessionContext: SessionContext,
): ChatReply {
  const language = message.language ?? DEFAULT_LANGUAGE;
  const analysis = message.emotionAnalysis ?? { emotion: 'neutral', intensity: 0, confidence: 0 };
  const emotion = analysis.emotion;
  return {
    reply: message.content,
    emotion,
    emotionalState: { emotion, intensity: analysis.intensity, mood: MOOD_BY_EMOTION[emotion] },
    animationIntent: animationIntentOf(emotion, gesture),
    language,
    userLanguage: userMessage.language ?? language,
    audioUrl: message.audioUrl,
    emotionAnalysis: analysis,
    personality: message.personality ?? 'default',
    sessionContext,
    sessionId: message.sessionId,
    messageId: message._id,
    userMessageId: userMessage._id,
    isComplete: message.isComplete,
  };
}

/** What the reply engine is told of the conversation so far (C-11): the context before this exchange. */
export function engineContext(state: SessionState): ReplyContext | undefined {
  if (!state.context) return undefined;
  const { summary, topics, names, keyPoints } = state.context;
  return { summary, topics, names, keyPoints, dominantEmotion: state.session.dominantEmotion };
}

/** A reply stored before, as an outcome: its chat reply with the session's context as it is now. */
export async function storedReplyOutcome(
  sessions: SessionRepository,
  userId: string,
  reply: Message,
  userMessage: Message,
): Promise<Extract<ReplyOutcome, { kind: 'stored' }>> {
  const state = await sessions.state(userId, reply.sessionId);
  const context = toSessionContext(
    reply.sessionId,
    state?.context ?? null,
    state?.session.dominantEmotion ?? null,
  );
  return { kind: 'stored', reply: chatReplyFrom(reply, userMessage, null, context), message: reply };
}
