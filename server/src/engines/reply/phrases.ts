import type { Personality } from '@alma/protocol';
import type { Feeling, Unavailable } from './intents.ts';

/**
 * The companion's wording, per language and personality. Each pool holds variants the composer
 * picks from deterministically; the same sentence is never said twice in a session, so pools
 * the user can hit repeatedly (feelings, small talk) are the longest.
 *
 * Placeholders: `{name}` needs the user's name (the variant is skipped without it),
 * `{, name}` adds ", Ana" only on turns where the name is used, `{topic}` a topic
 * ("tu examen"; the variant is skipped without one) and `{thing}` what cannot be checked.
 */
export type Pool = readonly string[];

export interface Voice {
  greeting: Pool;
  /** A greeting later in a session. */
  greetingAgain: Pool;
  farewell: Pool;
  thanks: Pool;
  /** Answers "how are you?" — statements; the question back comes from `askBack`. */
  howAreYou: Pool;
  askBack: Pool;
  nameIntro: Pool;
  identity: Pool;
  abilities: Pool;
  rememberName: Pool;
  unknownName: Pool;
  laugh: Pool;
  feelings: Record<Feeling, Pool>;
  /** Short support lines once the feeling pool is used up. */
  empathy: Pool;
  /** Gentle questions after a hard feeling. */
  care: Pool;
  unavailable: Pool;
  opinion: Pool;
  advice: Pool;
  openQuestion: Pool;
  topicNew: Pool;
  recallThing: Pool;
  recallPerson: Pool;
  smallTalk: Pool;
  /** Follow-up questions about what the user just said. */
  followUps: Pool;
  /** Questions that open a new thread when there is nothing to follow up. */
  openers: Pool;
}

export interface PhraseBook {
  /** How `{thing}` reads for each kind of unavailable information. */
  things: Record<Unavailable, string>;
  /** Short, clean jokes for "cuéntame un chiste" / "tell me a joke" (every personality). */
  jokes: Pool;
  /** Something to read, watch or listen to, when asked for a recommendation. */
  recommendations: Pool;
  /** A kind word, when asked for one ("dime algo bonito", "cheer me up"). */
  kindWords: Pool;
  voices: Record<Personality, Voice>;
}
