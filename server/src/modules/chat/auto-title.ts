import { AUTO_TITLE_MAX_LENGTH, type Language } from '@alma/protocol';
import { fold } from '../../engines/analysis/text.ts';
import { understand, type Feeling } from '../../engines/reply/intents.ts';
import { extractTopics, type Topic } from '../../engines/reply/topics.ts';

/**
 * A short session title from what the user talked about first (SPEC.md C-12), in that message's
 * language: the topic from the user's side ("Tu examen de mañana", "Sam's new job"), else the
 * feeling ("Un día agotador"), else who is talking ("Chat with Sam"), else the message's first
 * words. Deterministic, so replays see the same titles.
 */
const FEELING_TITLES: Record<Language, Record<Feeling, string>> = {
  es: {
    sad: 'Un día triste',
    happy: 'Buenas noticias',
    angry: 'Algo que te ha enfadado',
    anxious: 'Lo que te preocupa',
    tired: 'Un día agotador',
    lonely: 'Un rato de compañía',
  },
  en: {
    sad: 'A sad day',
    happy: 'Good news',
    angry: 'Something that made you angry',
    anxious: "What's worrying you",
    tired: 'A tiring day',
    lonely: 'Some company',
  },
};

/** When the topic happens, if the message says so: "de mañana", "tomorrow". */
function when(text: string, language: Language): string {
  const folded = fold(text);
  if (language === 'es') {
    if (/\bmanana\b/.test(folded) && !/\b(?:la|esta|por la) manana\b/.test(folded)) return ' de mañana';
    if (/\bhoy\b/.test(folded)) return ' de hoy';
    if (/\beste fin de semana\b/.test(folded)) return ' del fin de semana';
    return '';
  }
  if (/\btomorrow\b/.test(folded)) return ' tomorrow';
  if (/\btoday\b/.test(folded)) return ' today';
  if (/\bthis weekend\b/.test(folded)) return ' this weekend';
  return '';
}

/** "tu examen" → "Tu examen"; "la entrevista" → "Tu entrevista"; "the new job" → "Sam's new job". */
function fromTopic(topic: Topic, language: Language, userName: string | null): string {
  const [determiner = '', ...rest] = topic.phrase.split(' ');
  const noun = rest.join(' ');
  if (language === 'es') {
    const plural = determiner === 'tus' || determiner === 'los' || determiner === 'las';
    return `${plural ? 'Tus' : 'Tu'} ${noun}`;
  }
  return userName ? `${userName}'s ${noun}` : `Your ${noun}`;
}

function firstWords(text: string): string {
  const sentence =
    text
      .split(/(?<=[.!?…])\s+|\n+/u)
      .map((s) => s.replace(/[¿¡"“”«»]/g, '').trim())
      .find((s) => s.split(/\s+/).length >= 2) ?? text.trim();
  const words = sentence
    .replace(/[.!?…,;:]+$/u, '')
    .split(/\s+/)
    .slice(0, 6)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function fit(title: string): string {
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean.length <= AUTO_TITLE_MAX_LENGTH) return clean;
  const cut = clean.slice(0, AUTO_TITLE_MAX_LENGTH - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).trimEnd()}…`;
}

/** The title for a session whose first user message is `text` (in `language`). */
export function autoTitle(text: string, language: Language, userName: string | null = null): string {
  const u = understand(text, language, false);
  const name = u.name ?? userName;
  const topics = extractTopics(text).filter((t) => t.language === language);
  const topic = topics.find((t) => !t.person) ?? topics[0];
  if (topic) return fit(`${fromTopic(topic, language, name)}${when(text, language)}`);
  if (u.feeling) return fit(FEELING_TITLES[language][u.feeling]);
  const smallTalkOnly = (u.greeting || u.howAreYou || u.name !== null) && text.split(/\s+/).length <= 8;
  if (smallTalkOnly && name) return fit(language === 'es' ? `Conversación con ${name}` : `Chat with ${name}`);
  if (smallTalkOnly) return language === 'es' ? 'Primer saludo' : 'First hello';
  return fit(firstWords(text));
}
