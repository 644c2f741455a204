import type { Emotion, Gesture, Language, Message, Personality } from '@alma/protocol';

/**
 * A reply engine streams the companion's answer. Text arrives in pieces (words or tokens);
 * side-signals (emotion, gesture) may arrive at any point and are never part of the text.
 * Engines stop at once when `signal` aborts (the iterator then ends or throws an AbortError).
 */
export interface ReplyRequest {
  /** The user's message, trimmed. */
  text: string;
  /** The language to answer in (the user's, detected by the caller with `detectLanguage`). */
  language: Language;
  personality: Personality;
  /** Recent messages of the session, oldest first, NOT including the current user message. */
  history: readonly Pick<Message, 'role' | 'content' | 'language'>[];
  /**
   * The session's stored conversation context before this exchange (SPEC.md C-11): what the
   * history window may have forgotten. Optional; an engine may use it or not.
   */
  context?: ReplyContext;
  signal: AbortSignal;
}

export interface ReplyContext {
  summary: string;
  topics: readonly string[];
  /** People the user named, the user included. */
  names: readonly string[];
  keyPoints: readonly string[];
  dominantEmotion: Emotion | null;
}

export type ReplyChunk =
  | { type: 'text'; text: string }
  | { type: 'emotion'; emotion: Emotion; intensity: number; confidence: number }
  | { type: 'gesture'; gesture: Gesture };

export interface ReplyEngine {
  /** Reported by /health and server:status. */
  readonly name: string;
  stream(request: ReplyRequest): AsyncIterable<ReplyChunk>;
}
