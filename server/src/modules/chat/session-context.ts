import {
  CONTEXT_KEY_POINTS_MAX,
  EMOTIONS,
  type Emotion,
  type Language,
  type SessionContext,
} from '@alma/protocol';
import { fold } from '../../engines/analysis/text.ts';
import { extractName, understand } from '../../engines/reply/intents.ts';
import { extractTopics } from '../../engines/reply/topics.ts';
import type { ConversationContext, EmotionScores } from '../../storage/types.ts';

/**
 * The conversation context of a session (SPEC.md C-11), stored on the session and updated after
 * every exchange from the previous context and the new user message — so it remembers what the
 * engine's history window has long forgotten. People are names the user gave (their own, or
 * "mi amiga Sara"); topics are the things of their life they talk about ("examen", "new job"),
 * newest first; key points are the user's own substantive sentences, the latest kept.
 */
const TOPICS_MAX = 6;
const NAMES_MAX = 10;
const KEY_POINT_MAX_LENGTH = 100;

/** "Mi amiga Sara", "my brother Tom", "my friend is called Ana" — a person's name. */
const PERSON_NAME = /^(?:tu|tus|your|the|el|la|los|las)\s+(?:\p{L}+\s+)?\p{L}+\s+(\p{Lu}[\p{L}'-]+)$/u;

const STOP_WORDS = new Set(
  (
    'about after again because been before being could does doing from have having here into just like more most ' +
    'other over really should some than that their them then there these they this those through under very what ' +
    'when where which while with would your yours today tomorrow alguien algo aunque cada como cosas cuando desde ' +
    'donde ellos entonces esta estaba estar estas este esto estos estoy hacer hasta mucho muy nada para pero poco ' +
    'porque puede quiero sobre también tengo tiene todo todos usted vamos gracias hola hello thanks please mañana ' +
    'siento sentir feel feeling happy triste sad llamo llamas llama nombre called remember recuerdas acuerdas ' +
    'sabes know'
  ).split(' '),
);

export function emptyContext(): ConversationContext {
  return { summary: '', topics: [], names: [], keyPoints: [], userName: null, exchanges: 0 };
}

const same = (a: string, b: string) => fold(a) === fold(b);

/** Newest first, case- and accent-insensitive without repeats, at most `max`. */
function mergeNewestFirst(previous: readonly string[], fresh: readonly string[], max: number): string[] {
  const out: string[] = [];
  for (const item of [...fresh, ...previous]) if (!out.some((x) => same(x, item))) out.push(item);
  return out.slice(0, max);
}

/** Oldest first (the earlier spelling stays), the latest `max` kept. */
function mergeOldestFirst(previous: readonly string[], fresh: readonly string[], max: number): string[] {
  const out = [...previous];
  for (const item of fresh) if (!out.some((x) => same(x, item))) out.push(item);
  return out.slice(-max);
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** The user's sentence worth keeping from this message, if any: small talk alone is not a point. */
function keyPointOf(text: string, language: Language, topicWords: readonly string[], hasHistory: boolean) {
  const u = understand(text, language, hasHistory);
  const substantive =
    u.name !== null ||
    u.feeling !== null ||
    u.topics.length > 0 ||
    (u.question !== null && u.unavailable === null) ||
    text.split(/\s+/).length >= 6;
  if (!substantive) return null;
  const all = sentences(text);
  const informative = (s: string) => {
    const folded = fold(s);
    return (
      topicWords.some((w) => folded.includes(fold(w))) ||
      (u.name !== null && s.includes(u.name)) ||
      understand(s, language, true).feeling !== null
    );
  };
  const best = all.find(informative) ?? all.find((s) => s.split(/\s+/).length >= 3) ?? all[0];
  return best ? shorten(best, KEY_POINT_MAX_LENGTH) : null;
}

/** Topics and names of one user message, for the context (not the companion's phrasing). */
function readMessage(text: string, language: Language) {
  const topics: string[] = [];
  const names: string[] = [];
  for (const topic of extractTopics(text)) {
    if (topic.language !== language) continue;
    const named = PERSON_NAME.exec(topic.phrase)?.[1];
    if (named) names.push(named);
    // "tu nuevo trabajo" → "nuevo trabajo"; a named person is a name, not a topic.
    else topics.push(topic.phrase.split(' ').slice(1).join(' '));
  }
  const own = extractName(text);
  if (own) names.unshift(own);
  return { topics, names, own };
}

/** Words that came back from an earlier key point: a recurring subject without a determiner. */
function recurringWords(text: string, earlier: readonly string[], exclude: readonly string[]): string[] {
  const before = new Set(earlier.flatMap((point) => point.toLowerCase().match(/\p{L}{5,}/gu) ?? []));
  const excluded = new Set(exclude.map(fold));
  return [...new Set(text.toLowerCase().match(/\p{L}{5,}/gu) ?? [])].filter(
    (word) => before.has(word) && !STOP_WORDS.has(word) && !excluded.has(fold(word)),
  );
}

export interface Exchange {
  /** The user message of the exchange. */
  userText: string;
  /** Its language: the summary is written in it. */
  language: Language;
  dominantEmotion: Emotion | null;
}

/** The context after one more exchange. Pure: the same inputs give the same context. */
export function updateContext(previous: ConversationContext | null, exchange: Exchange): ConversationContext {
  const prev = previous ?? emptyContext();
  const { userText, language } = exchange;
  const read = readMessage(userText, language);
  const mentioned = [
    ...read.topics,
    ...recurringWords(userText, prev.keyPoints, [...prev.names, ...read.names, ...read.topics]),
  ];
  const topics = mergeNewestFirst(prev.topics, mentioned, TOPICS_MAX);
  const names = mergeOldestFirst(prev.names, read.names, NAMES_MAX);
  const point = keyPointOf(userText, language, read.topics, prev.exchanges > 0);
  const keyPoints =
    point && !same(point, prev.keyPoints.at(-1) ?? '')
      ? [...prev.keyPoints, point].slice(-CONTEXT_KEY_POINTS_MAX)
      : prev.keyPoints;
  const userName = read.own ?? prev.userName;
  const exchanges = prev.exchanges + 1;
  return {
    summary: summarize(language, { userName, names, topics, exchanges, mood: exchange.dominantEmotion }),
    topics,
    names,
    keyPoints,
    userName,
    exchanges,
  };
}

const EMOTION_WORDS: Record<Language, Record<Emotion, string>> = {
  es: {
    happy: 'alegre',
    sad: 'triste',
    angry: 'tenso',
    fearful: 'inquieto',
    surprised: 'sorprendido',
    excited: 'entusiasta',
    calm: 'sereno',
    neutral: 'neutro',
  },
  en: {
    happy: 'cheerful',
    sad: 'sad',
    angry: 'tense',
    fearful: 'worried',
    surprised: 'surprised',
    excited: 'excited',
    calm: 'calm',
    neutral: 'neutral',
  },
};

function list(language: Language, items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  const and = language === 'es' ? ' y ' : ' and ';
  return `${items.slice(0, -1).join(', ')}${and}${items.at(-1)}`;
}

/** One or two plain sentences in the conversation's language. */
function summarize(
  language: Language,
  c: { userName: string | null; names: string[]; topics: string[]; exchanges: number; mood: Emotion | null },
): string {
  const others = c.names.filter((n) => n !== c.userName);
  const topics = c.topics.slice(0, 3);
  const parts: string[] = [];
  if (language === 'es') {
    const n = `${c.exchanges} ${c.exchanges === 1 ? 'intercambio' : 'intercambios'}`;
    parts.push(c.userName ? `Conversación con ${c.userName} (${n}).` : `Conversación de ${n}.`);
    if (topics.length) parts.push(`Temas: ${list(language, topics)}.`);
    if (others.length) parts.push(`Personas: ${list(language, others)}.`);
    if (c.mood && c.mood !== 'neutral') parts.push(`Tono: ${EMOTION_WORDS.es[c.mood]}.`);
  } else {
    const n = `${c.exchanges} ${c.exchanges === 1 ? 'exchange' : 'exchanges'}`;
    parts.push(c.userName ? `Conversation with ${c.userName} (${n}).` : `Conversation of ${n}.`);
    if (topics.length) parts.push(`Topics: ${list(language, topics)}.`);
    if (others.length) parts.push(`People: ${list(language, others)}.`);
    if (c.mood && c.mood !== 'neutral') parts.push(`Mood: ${EMOTION_WORDS.en[c.mood]}.`);
  }
  return parts.join(' ');
}

/**
 * The dominant emotion (SPEC.md C-11) is a decayed score: before each reply every score is
 * multiplied by `EMOTION_DECAY`, then the reply's emotion adds its intensity (at least
 * `EMOTION_FLOOR`, so a calm, low-intensity reply still counts). Recent, intense emotions lead;
 * one outburst fades after a few calmer replies. Ties go to the latest reply's emotion.
 */
export const EMOTION_DECAY = 0.7;
export const EMOTION_FLOOR = 0.2;

export function scoreEmotion(
  previous: EmotionScores,
  emotion: Emotion,
  intensity: number,
): { scores: EmotionScores; dominant: Emotion } {
  const scores: EmotionScores = {};
  for (const e of EMOTIONS) {
    const decayed = (previous[e] ?? 0) * EMOTION_DECAY;
    // Rounded so the stored JSON stays short and stable across stores.
    const score =
      Math.round((decayed + (e === emotion ? Math.max(intensity, EMOTION_FLOOR) : 0)) * 1e4) / 1e4;
    if (score > 0) scores[e] = score;
  }
  let dominant = emotion;
  for (const e of EMOTIONS) if ((scores[e] ?? 0) > (scores[dominant] ?? 0)) dominant = e;
  return { scores, dominant };
}

/** The context as the protocol carries it (spec §3 "Conversation context"). */
export function toSessionContext(
  sessionId: string,
  context: ConversationContext | null,
  dominantEmotion: Emotion | null,
): SessionContext {
  const c = context ?? emptyContext();
  return {
    sessionId,
    summary: c.summary,
    topics: c.topics,
    entities: { names: c.names },
    keyPoints: c.keyPoints,
    dominantEmotion,
  };
}
