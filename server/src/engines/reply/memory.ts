import type { Language } from '@alma/protocol';
import { fold } from '../analysis/text.ts';
import { keptResults } from '../../lib/kept-results.ts';
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

/** How many sentences' normal forms are kept, and how many replies' sentences (a few MB at most). */
const SENTENCES_KEPT = 10_000;
const REPLIES_KEPT = 4096;

/**
 * Case, accents and punctuation do not make a sentence new. Kept once made: the companion's
 * sentences repeat across sessions, and a reply's candidates are checked against what was said.
 */
export const normaliseSentence: (sentence: string) => string = keptResults(
  (sentence) =>
    fold(sentence)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim(),
  SENTENCES_KEPT,
);

/**
 * A reply's sentences normalised, kept by its text: every turn reads the whole history's again
 * (issue 14: in a session of 40 messages and more, composing a reply took ×4–5 of composing one
 * with no history, ×1.7–1.8 since; `tests/bench/reply-engine-bench.ts`). The builtin engine's
 * replies, the only ones read here, are a few hundred characters.
 */
const sentencesOf = keptResults((reply) => splitSentences(reply).map(normaliseSentence), REPLIES_KEPT);

export function remember(history: History, language: Language, currentTopics: readonly Topic[]): Memory {
  let name: string | null = null;
  const usedSentences = new Set<string>();
  for (const message of history) {
    if (message.role === 'user') name = extractName(message.content) ?? name;
    if (message.role === 'assistant')
      for (const sentence of sentencesOf(message.content)) usedSentences.add(sentence);
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
  // Each message folded once, when first needed: the scan below looks at later ones again and again.
  const folded: string[] = [];
  const foldedAt = (j: number) => (folded[j] ??= fold(history[j]?.content ?? ''));
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (message?.role !== 'user') continue;
    const topics = extractTopics(message.content).filter((t) => t.language === language);
    const comesUpLater = (topic: Topic) => {
      for (let j = i + 2; j < history.length; j++) if (foldedAt(j).includes(topic.key)) return true;
      return false;
    };
    if (topics.some((t) => current.has(t.key) || comesUpLater(t))) continue;
    if (topics[0]) return topics[0];
  }
  return null;
}
