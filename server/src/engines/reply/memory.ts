import type { Language } from '@alma/protocol';
import { fold } from '../analysis/text.ts';
import { extractName } from './intents.ts';
import { extractTopics, type Topic } from './topics.ts';
import type { ReplyRequest } from './types.ts';

/**
 * What the companion "remembers" is read back from the session history on every turn: the
 * engine keeps no state of its own, so replaying a recorded session gives the same replies.
 */
export interface Memory {
  /** The latest name the user gave. */
  name: string | null;
  /** Something the user mentioned earlier that the companion has not followed up on yet. */
  openTopic: Topic | null;
  /** Every sentence the companion already said, normalised, so it never says one twice. */
  usedSentences: Set<string>;
}

type History = ReplyRequest['history'];

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Case, accents and punctuation do not make a sentence new. */
export function normaliseSentence(sentence: string): string {
  return fold(sentence)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function remember(history: History, language: Language, currentTopics: readonly Topic[]): Memory {
  let name: string | null = null;
  const usedSentences = new Set<string>();
  for (const message of history) {
    if (message.role === 'user') name = extractName(message.content) ?? name;
    if (message.role === 'assistant') {
      for (const sentence of splitSentences(message.content)) usedSentences.add(normaliseSentence(sentence));
    }
  }
  return { name, openTopic: findOpenTopic(history, language, currentTopics), usedSentences };
}

/**
 * The most recent topic the user brought up that the companion can ask about now: in the reply's
 * language, not the one being talked about this turn, and from a message not followed up yet.
 * The companion's direct answer to the mention does not count (it is the same exchange); once one
 * topic of a message was followed up, the message is done — asking about the daughter and then
 * about her interview on the next turn would feel like a questionnaire.
 */
function findOpenTopic(history: History, language: Language, currentTopics: readonly Topic[]): Topic | null {
  const current = new Set(currentTopics.map((t) => t.key));
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    const topics = extractTopics(message.content).filter((t) => t.language === language);
    const later = history.slice(i + 2);
    const comesUpLater = (topic: Topic) => later.some((m) => fold(m.content).includes(topic.key));
    if (topics.some((t) => current.has(t.key) || comesUpLater(t))) continue;
    if (topics[0]) return topics[0];
  }
  return null;
}
