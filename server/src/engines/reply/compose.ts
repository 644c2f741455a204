import type { Emotion, Gesture, Language } from '@alma/protocol';
import { chooseGesture, type GestureIntent } from '../analysis/emotion.ts';
import { understand, type Understanding } from './intents.ts';
import { remember, type Memory } from './memory.ts';
import { ENGLISH_PHRASES } from './phrases.en.ts';
import { SPANISH_PHRASES } from './phrases.es.ts';
import type { PhraseBook, Pool, Voice } from './phrases.ts';
import type { Topic } from './topics.ts';
import type { ReplyRequest } from './types.ts';
import { hash, SentencePicker } from './variants.ts';

/**
 * The builtin companion's brain: understand the message, recall the session, then build a reply
 * of one to three sentences — a reaction to what leads the message, optionally a callback to
 * something said earlier, and a follow-up question to keep the conversation going.
 */
export type ComposeRequest = Omit<ReplyRequest, 'signal'>;

export interface ComposedReply {
  text: string;
  /** The companion's own emotion for the avatar, not the user's. */
  emotion: Emotion;
  intensity: number;
  confidence: number;
  gesture: Gesture | null;
}

const BOOKS: Record<Language, PhraseBook> = { es: SPANISH_PHRASES, en: ENGLISH_PHRASES };

/** What the reply is mainly about, in priority order: the first that applies leads. */
type Lead =
  | 'unavailable'
  | 'rememberMe'
  | 'nameIntro'
  | 'identity'
  | 'request'
  | 'farewell'
  | 'feeling'
  | 'thanks'
  | 'howAreYou'
  | 'greeting'
  | 'laugh'
  | 'question'
  | 'topic'
  | 'smallTalk';

function leadOf(u: Understanding): Lead {
  if (u.unavailable) return 'unavailable';
  if (u.rememberMe) return 'rememberMe';
  if (u.name) return 'nameIntro';
  if (u.askIdentity || u.askAbilities) return 'identity';
  if (u.request) return 'request';
  if (u.farewell) return 'farewell';
  // "jajaja" reads as happy to the lexicon, but it is a laugh, not news to celebrate.
  if (u.feeling && !(u.laugh && u.feeling === 'happy')) return 'feeling';
  if (u.thanks) return 'thanks';
  if (u.howAreYou) return 'howAreYou';
  if (u.greeting) return 'greeting';
  if (u.laugh) return 'laugh';
  if (u.question) return 'question';
  if (u.topics.length > 0) return 'topic';
  return 'smallTalk';
}

/** Leads where saying the user's name is natural every time; elsewhere only now and then. */
const NAME_LEADS = new Set<Lead>(['greeting', 'farewell', 'nameIntro', 'rememberMe']);

interface Mood {
  emotion: Emotion;
  intensity: number;
  intent?: GestureIntent;
}

function moodOf(lead: Lead, u: Understanding, nameKnown: boolean): Mood {
  const user = u.emotion;
  switch (lead) {
    case 'unavailable':
      return { emotion: 'neutral', intensity: 0.3, intent: 'decline' };
    case 'rememberMe':
      return nameKnown
        ? { emotion: 'happy', intensity: 0.6, intent: 'agree' }
        : { emotion: 'neutral', intensity: 0.3, intent: 'think' };
    case 'nameIntro':
      return u.feeling && u.feeling !== 'happy'
        ? moodOf('feeling', u, nameKnown)
        : { emotion: 'happy', intensity: 0.6, intent: 'greeting' };
    case 'identity':
      return { emotion: 'happy', intensity: 0.5, intent: 'agree' };
    case 'request':
      return u.request === 'joke'
        ? { emotion: 'happy', intensity: 0.7, intent: 'laugh' }
        : u.request === 'kind'
          ? { emotion: 'happy', intensity: 0.7, intent: 'agree' }
          : { emotion: 'happy', intensity: 0.5, intent: 'think' };
    case 'farewell':
      return { emotion: 'calm', intensity: 0.5, intent: 'farewell' };
    case 'thanks':
      return { emotion: 'happy', intensity: 0.6, intent: 'thanks' };
    case 'howAreYou':
      return { emotion: 'happy', intensity: 0.5, intent: u.greeting ? 'greeting' : 'agree' };
    case 'greeting':
      return { emotion: 'happy', intensity: 0.6, intent: 'greeting' };
    case 'laugh':
      return { emotion: 'happy', intensity: 0.7, intent: 'laugh' };
    case 'question':
      return { emotion: 'neutral', intensity: 0.4, intent: 'think' };
    case 'topic':
      return { emotion: user.emotion, intensity: Math.max(user.intensity, 0.3), intent: 'agree' };
    case 'smallTalk':
      return { emotion: user.emotion, intensity: user.intensity };
    case 'feeling':
      switch (u.feeling) {
        // Mirror sadness gently and comfort; stay a calm presence for the other hard feelings.
        case 'sad':
          return { emotion: 'sad', intensity: Math.min(user.intensity, 0.6), intent: 'comfort' };
        case 'happy':
          return user.emotion === 'excited'
            ? { emotion: 'excited', intensity: user.intensity, intent: 'celebrate' }
            : { emotion: 'happy', intensity: user.intensity, intent: 'applaud' };
        case 'angry':
          return { emotion: 'calm', intensity: 0.5, intent: 'agree' };
        case 'anxious':
        case 'lonely':
        case 'tired':
        case null:
          return { emotion: 'calm', intensity: 0.6, intent: 'comfort' };
      }
  }
}

/** Spanish formal speech says "su examen", not "tu examen". */
function topicPhrase(topic: Topic | undefined | null, language: Language, formal: boolean): string | null {
  if (!topic) return null;
  if (language !== 'es' || !formal) return topic.phrase;
  return topic.phrase.replace(/^tus\b/, 'sus').replace(/^tu\b/, 'su');
}

export function composeReply(request: ComposeRequest): ComposedReply {
  const { language, personality, history } = request;
  const u = understand(request.text, language, history.length > 0);
  const memory: Memory = remember(history, language, u.topics);
  const voice: Voice = BOOKS[language].voices[personality];
  const lead = leadOf(u);
  const seed = hash(`${request.text}\u0000${history.length}`);
  const name = u.name ?? memory.name;
  const formal = personality === 'formal';

  const picker = new SentencePicker(memory.usedSentences, seed, {
    name,
    useName: name !== null && (NAME_LEADS.has(lead) || seed % 3 === 0),
    topic: topicPhrase(u.topics[0], language, formal),
    thing: u.unavailable ? BOOKS[language].things[u.unavailable] : null,
  });
  const recallPools = (topic: Topic): Pool[] => [topic.person ? voice.recallPerson : voice.recallThing];
  const recall = (): string | null =>
    memory.openTopic
      ? picker.pick(recallPools(memory.openTopic), 'recall', {
          topic: topicPhrase(memory.openTopic, language, formal),
        })
      : null;

  const parts: (string | null)[] = [];
  // Feelings, topics and questions get a follow-up about them; everything else opens a thread.
  let followUp: readonly Pool[] | null = [voice.openers, voice.followUps];
  const negative = u.feeling !== null && u.feeling !== 'happy';

  switch (lead) {
    case 'unavailable':
      parts.push(picker.pickOrRepeat([voice.unavailable], 'lead'));
      break;
    case 'rememberMe':
      if (name) {
        parts.push(picker.pickOrRepeat([voice.rememberName], 'lead'), recall());
      } else {
        parts.push(picker.pickOrRepeat([voice.unknownName], 'lead'));
        followUp = null;
      }
      break;
    case 'nameIntro':
      parts.push(picker.pickOrRepeat([voice.nameIntro], 'lead'));
      // "Soy Ana y estoy triste": the feeling matters more than small talk, and one name is enough.
      if (u.feeling) parts.push(picker.pick([voice.feelings[u.feeling]], 'feeling', { useName: false }));
      followUp = negative ? [voice.care] : [voice.askBack, voice.openers];
      break;
    case 'identity':
      if (u.askIdentity) parts.push(picker.pickOrRepeat([voice.identity], 'identity'));
      if (u.askAbilities) {
        parts.push(picker.pickOrRepeat([voice.abilities], 'abilities'));
        followUp = null; // already two full sentences
      }
      break;
    case 'request': {
      const book = BOOKS[language];
      const pool = { joke: book.jokes, recommend: book.recommendations, kind: book.kindWords }[
        u.request ?? 'recommend'
      ];
      parts.push(picker.pickOrRepeat([pool], 'lead'));
      followUp = null;
      break;
    }
    case 'farewell':
      parts.push(picker.pickOrRepeat([voice.farewell], 'lead'));
      followUp = null;
      break;
    case 'feeling': {
      const feeling = u.feeling ?? 'sad';
      const fallbacks = negative ? [voice.empathy, voice.care, voice.smallTalk] : [voice.smallTalk];
      parts.push(picker.pickOrRepeat([voice.feelings[feeling], ...fallbacks], 'lead'));
      followUp = negative ? [voice.care] : [voice.followUps];
      break;
    }
    case 'thanks':
      parts.push(picker.pickOrRepeat([voice.thanks, voice.smallTalk], 'lead'), recall());
      break;
    case 'howAreYou':
      parts.push(picker.pickOrRepeat([voice.howAreYou, voice.smallTalk], 'lead'), recall());
      // They just said how they are: asking them back would not be listening.
      followUp = u.askedBack ? [voice.openers] : [voice.askBack, voice.openers];
      break;
    case 'greeting': {
      const greetings =
        history.length > 0 ? [voice.greetingAgain, voice.greeting] : [voice.greeting, voice.greetingAgain];
      parts.push(picker.pickOrRepeat(greetings, 'lead'), recall());
      followUp = [voice.askBack, voice.openers];
      break;
    }
    case 'laugh':
      parts.push(picker.pickOrRepeat([voice.laugh, voice.smallTalk], 'lead'));
      break;
    case 'question': {
      const byKind = { opinion: voice.opinion, advice: voice.advice, open: voice.openQuestion } as const;
      parts.push(
        picker.pickOrRepeat([byKind[u.question ?? 'open'], voice.openQuestion, voice.smallTalk], 'lead'),
      );
      followUp = [voice.followUps];
      break;
    }
    case 'topic':
      parts.push(picker.pickOrRepeat([voice.topicNew, voice.smallTalk], 'lead'));
      followUp = [voice.followUps];
      break;
    case 'smallTalk':
      parts.push(picker.pickOrRepeat([voice.smallTalk, voice.empathy], 'lead'), recall());
      break;
  }

  const sentences = parts.filter((part): part is string => part !== null);
  if (followUp && !sentences.some((s) => s.includes('?'))) {
    const question = picker.pick(followUp, 'followUp');
    if (question) sentences.push(question);
  }

  const mood = moodOf(lead, u, name !== null);
  const patternLed = lead !== 'feeling' && lead !== 'topic' && lead !== 'smallTalk';
  return {
    text: sentences.join(' '),
    emotion: mood.emotion,
    intensity: round(mood.intensity),
    confidence: round(patternLed ? 0.8 : Math.max(u.emotion.confidence, 0.3)),
    // The gesture answers how strongly the user feels: deep sadness gets the kneeling comfort.
    gesture: chooseGesture({
      emotion: mood.emotion,
      intensity: u.emotion.intensity,
      intent: mood.intent ?? 'none',
    }),
  };
}

function round(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
