import type { Emotion, Gesture, Language } from '@alma/protocol';
import { compileLexicon, type CompiledLexicon, type LexiconEntry, type ScoredEmotion } from './lexicon.ts';
import { ENGLISH_LEXICON } from './lexicon.en.ts';
import { SPANISH_LEXICON } from './lexicon.es.ts';
import { fold, words } from './text.ts';

/**
 * Lexicon-based emotion analysis for es/en chat lines. No package covers emotions (only
 * positive/negative sentiment), so this is our own small lexicon with the three rules that matter
 * most in chat: negation ("no estoy feliz"), intensifiers ("muy triste") and exclamation marks.
 * Held-out accuracy is printed by emotion.test.ts.
 */
export interface EmotionResult {
  emotion: Emotion;
  /** How strongly it is expressed, 0–1. */
  intensity: number;
  /** How sure the analyser is, 0–1. */
  confidence: number;
}

const LEXICONS: Record<Language, CompiledLexicon> = {
  es: compileLexicon(SPANISH_LEXICON),
  en: compileLexicon(ENGLISH_LEXICON),
};

/** What a negated emotion word means instead: "not happy" is sad, "no longer worried" is calm. */
const NEGATED: Record<ScoredEmotion, { emotion: ScoredEmotion; factor: number }> = {
  happy: { emotion: 'sad', factor: 0.8 },
  excited: { emotion: 'sad', factor: 0.5 },
  calm: { emotion: 'fearful', factor: 0.6 },
  sad: { emotion: 'calm', factor: 0.3 },
  angry: { emotion: 'calm', factor: 0.3 },
  fearful: { emotion: 'calm', factor: 0.6 },
  // "No me sorprende": what was expected leaves one composed.
  surprised: { emotion: 'calm', factor: 0.6 },
};

const EMOJI: [RegExp, ScoredEmotion][] = [
  [/[😊🙂😀😃😄😁☺😍🥰❤💖😂🤣]/gu, 'happy'],
  [/[😢😭😞😔💔☹🙁😿]/gu, 'sad'],
  [/[😡😠🤬💢]/gu, 'angry'],
  [/[😱😨😰😟😬]/gu, 'fearful'],
  [/[🎉🥳🤩🔥]/gu, 'excited'],
  [/[😌🧘🍵]/gu, 'calm'],
  [/[😮😲😯🤯😳]/gu, 'surprised'],
];

/** Any of them: most lines have none, and are scanned once rather than once per emotion. */
const ANY_EMOJI = new RegExp(EMOJI.map(([pattern]) => pattern.source).join('|'), 'u');

/**
 * An echo question opening a message ("¿Perdona?", "Seriously?", "Sorry, what?", "¿Cómo que…?")
 * or a question after "Wait"/"Hold on"/"Espera" is disbelief at what was just heard: surprise, whatever follows.
 */
const ECHO_QUESTION =
  /^[\s¿¡]*(?:(?:perdona|seriously|really|en serio|(?:sorry,? )?what)\s*\?|como que\b|(?:wait|hold on|espera)\b[^?]*\?)/u;
const ECHO_WEIGHT = 0.8;
const QUESTION_SURPRISE_BOOST = 1.5;

const INTENSIFIER_BOOST = 1.6;
const NEGATION_WINDOW = 3;
/** Below this total evidence the text reads as neutral. */
const NEUTRAL_THRESHOLD = 0.5;

function emptyScores(): Record<ScoredEmotion, number> {
  return { happy: 0, sad: 0, angry: 0, fearful: 0, surprised: 0, excited: 0, calm: 0 };
}

function isNegated(tokens: string[], index: number, lexicon: CompiledLexicon): boolean {
  for (let i = Math.max(0, index - NEGATION_WINDOW); i < index; i++) {
    const token = tokens[i] ?? '';
    const next = tokens[i + 1] ?? '';
    if (lexicon.negators.has(token) && !lexicon.negationBreakers.has(next)) return true;
  }
  return false;
}

function score(
  scores: Record<ScoredEmotion, number>,
  tokens: string[],
  index: number,
  emotion: ScoredEmotion,
  weight: number,
  lexicon: CompiledLexicon,
): void {
  const previous = tokens[index - 1] ?? '';
  const boosted = lexicon.intensifiers.has(previous) ? weight * INTENSIFIER_BOOST : weight;
  if (isNegated(tokens, index, lexicon)) {
    const flipped = NEGATED[emotion];
    scores[flipped.emotion] += boosted * flipped.factor;
  } else {
    scores[emotion] += boosted;
  }
}

/**
 * Inflected forms the lexicon does not list: "scares", "wonderfully", "worried" → their base.
 * Tried only when the word itself matches nothing, longest ending first.
 */
const ENDINGS: Record<Language, string[]> = {
  en: ['fully', 'ness', 'ing', 'ily', 'ied', 'ies', 'ly', 'ed', 'es', 's', 'd'],
  es: ['ísimos', 'isimos', 'isimas', 'isimo', 'isima', 'mente', 'itos', 'itas', 'ito', 'ita', 'es', 's'],
};

function findEntry(token: string, lexicon: CompiledLexicon, language: Language): LexiconEntry | undefined {
  const direct = lexicon.match(token);
  if (direct) return direct;
  for (const ending of ENDINGS[language]) {
    if (!token.endsWith(ending) || token.length - ending.length < 3) continue;
    const base = token.slice(0, -ending.length);
    const bases =
      ending === 'ily' || ending === 'ied' || ending === 'ies' ? [`${base}y`] : [base, `${base}e`];
    const entry = lexicon.exact(bases);
    if (entry) return entry;
  }
  return undefined;
}

/** Whether `phrase` is at `start` of `tokens`, none of its words scored already. */
function phraseAt(
  phrase: readonly string[],
  tokens: readonly string[],
  start: number,
  consumed: Set<number>,
): boolean {
  for (let k = 0; k < phrase.length; k++) {
    if (tokens[start + k] !== phrase[k] || consumed.has(start + k)) return false;
  }
  return true;
}

export function analyzeEmotion(text: string, language: Language): EmotionResult {
  const lexicon = LEXICONS[language];
  const tokens = words(text);
  const scores = emptyScores();
  const consumed = new Set<number>();

  // Phrases first; their words are not scored again on their own. Only phrases whose first
  // word is in the text are looked for (most are not).
  const present = new Set(tokens);
  for (const phrase of lexicon.phrases) {
    if (!present.has(phrase.tokens[0]!)) continue;
    for (let start = 0; start + phrase.tokens.length <= tokens.length; start++) {
      if (phraseAt(phrase.tokens, tokens, start, consumed)) {
        score(scores, tokens, start, phrase.emotion, phrase.weight, lexicon);
        for (let k = 0; k < phrase.tokens.length; k++) consumed.add(start + k);
      }
    }
  }
  tokens.forEach((token, index) => {
    if (consumed.has(index)) return;
    const entry = findEntry(token, lexicon, language);
    if (entry) score(scores, tokens, index, entry.emotion, entry.weight, lexicon);
  });
  if (ANY_EMOJI.test(text)) {
    for (const [pattern, emotion] of EMOJI) scores[emotion] += (text.match(pattern) ?? []).length * 0.8;
  }
  if (ECHO_QUESTION.test(fold(text))) scores.surprised += ECHO_WEIGHT;
  // Wonder asked as a question ("¡Guau! ¿Eso lo has hecho tú?") is surprise more than excitement.
  if (text.includes('?') && scores.surprised > 0) scores.surprised *= QUESTION_SURPRISE_BOOST;

  // Exclamation marks and shouting raise arousal: joy turns into excitement, anger and fear grow.
  const exclamations = Math.min((text.match(/!/g) ?? []).length, 3);
  const shouting = /\b\p{Lu}{4,}\b/u.test(text) ? 1 : 0;
  const arousal = exclamations * 0.35 + shouting * 0.3;
  if (arousal > 0) {
    if (scores.happy > 0) scores.excited += arousal;
    for (const emotion of ['excited', 'surprised', 'angry', 'fearful', 'sad'] as const) {
      scores[emotion] *= 1 + arousal / 2;
    }
  }

  const ranked = (Object.entries(scores) as [ScoredEmotion, number][]).sort((a, b) => b[1] - a[1]);
  const [top, topScore] = ranked[0] ?? ['calm', 0];
  const total = ranked.reduce((sum, [, value]) => sum + value, 0);
  if (topScore < NEUTRAL_THRESHOLD) {
    return { emotion: 'neutral', intensity: 0.2, confidence: total === 0 ? 0.6 : 0.4 };
  }
  const evidence = 1 - Math.exp(-1.5 * topScore);
  return {
    emotion: top,
    intensity: round(1 - Math.exp(-topScore)),
    confidence: round((topScore / total) * evidence),
  };
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}

/**
 * What the companion's words are doing, when the caller knows it (the reply engine does); the
 * gesture follows the intent first and the emotion second.
 */
export type GestureIntent =
  | 'greeting'
  | 'farewell'
  | 'thanks'
  | 'agree'
  | 'decline'
  | 'think'
  | 'comfort'
  | 'celebrate'
  | 'applaud'
  | 'laugh'
  | 'surprise'
  | 'none';

const INTENT_GESTURE: Record<Exclude<GestureIntent, 'comfort' | 'none'>, Gesture> = {
  greeting: 'greeting',
  farewell: 'goodbye',
  thanks: 'nodding',
  agree: 'nodding',
  decline: 'shaking',
  think: 'thinking',
  celebrate: 'celebration',
  applaud: 'clapping',
  laugh: 'laughing',
  surprise: 'surprise',
};

/** Cues for text-only callers (the chat pipeline gestures each spoken chunk of a reply). */
const TEXT_CUES: [RegExp, GestureIntent][] = [
  [/\b(hola|buen[oa]s (dias|tardes|noches)|hi|hello|hey|good (morning|afternoon|evening))\b/, 'greeting'],
  [/\b(adios|hasta (luego|pronto|manana)|nos vemos|chao|bye|goodbye|see you|good night)\b/, 'farewell'],
  [/\b(ja(ja)+|je(je)+|ha(ha)+|lol)\b/, 'laugh'],
  [/\b(gracias|thank(s| you))\b/, 'thanks'],
  [/\b(vaya|guau|wow|increible|no me digas|no way)\b/, 'surprise'],
  [/\b(no puedo|no tengo acceso|can't|cannot|i don't have access)\b/, 'decline'],
];

export interface GestureInput {
  emotion: Emotion;
  intensity: number;
  intent?: GestureIntent;
  /** Used only when no intent is given. */
  text?: string;
}

export function chooseGesture(input: GestureInput): Gesture | null {
  const intent = input.intent ?? intentFromText(input.text ?? '');
  if (intent === 'comfort') return input.intensity >= 0.8 ? 'kneeling' : 'comforting';
  if (intent !== 'none') return INTENT_GESTURE[intent];

  switch (input.emotion) {
    case 'excited':
      return 'celebration';
    case 'happy':
      return input.intensity >= 0.7 ? 'clapping' : 'nodding';
    case 'sad':
    case 'fearful':
      return input.intensity >= 0.8 ? 'kneeling' : 'comforting';
    case 'angry':
      return input.intensity >= 0.6 ? 'angry' : 'shaking';
    case 'surprised':
      return 'surprise';
    case 'calm':
    case 'neutral':
      return null;
  }
}

function intentFromText(text: string): GestureIntent {
  const folded = words(text).join(' ');
  for (const [pattern, intent] of TEXT_CUES) {
    if (pattern.test(folded)) return intent;
  }
  // A question is the companion wondering aloud.
  return text.trim().endsWith('?') ? 'think' : 'none';
}
