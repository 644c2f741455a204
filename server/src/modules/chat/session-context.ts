import type { Language, Message, SessionContext } from '@alma/protocol';

/**
 * A first conversation context, derived from the session's recent messages each time: people
 * the user named, recurring topics, the latest points the user made, and a one-line summary.
 * Derived, not stored, so it can never disagree with the messages it comes from.
 */
const NAME_PATTERNS = [
  /\b(?:me llamo|mi nombre es)\s+([A-ZÁÉÍÓÚÑ][\p{L}'-]+)/u,
  /\bmy name is\s+([A-Z][\p{L}'-]+)/u,
  /\b(?:mi|my)\s+(?:amig[oa]|herman[oa]|madre|padre|mamá|papá|novi[oa]|pareja|hij[oa]|friend|brother|sister|mother|father|mom|dad|partner|son|daughter|wife|husband)\s+([A-ZÁÉÍÓÚÑ][\p{L}'-]+)/u,
];

const STOP_WORDS = new Set(
  (
    'about after again because been before being could does doing from have having here into just like more most ' +
    'other over really should some than that their them then there these they this those through under very what ' +
    'when where which while with would your yours alguien algo aunque cada como cosas cuando desde donde ellos ' +
    'entonces esta estaba estar estas este esto estos hacer hasta mucho muy nada para pero poco porque puede ' +
    'quiero sobre también tengo tiene todo todos tu tus usted vamos gracias hola hello thanks please'
  ).split(' '),
);

export function deriveSessionContext(
  sessionId: string,
  messages: readonly Message[],
  language: Language,
): SessionContext {
  const userLines = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const names = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of userLines) {
    for (const pattern of NAME_PATTERNS) {
      const match = pattern.exec(line);
      if (match?.[1]) names.add(match[1]);
    }
    for (const word of line.toLowerCase().match(/\p{L}{5,}/gu) ?? []) {
      if (!STOP_WORDS.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const topics = [...counts.entries()]
    .filter(([word]) => ![...names].some((n) => n.toLowerCase() === word))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([word]) => word);
  const keyPoints = userLines.slice(-3).map((line) => (line.length > 80 ? `${line.slice(0, 77)}…` : line));
  return {
    sessionId,
    summary: summarize(language, userLines.length, topics, [...names]),
    topics,
    entities: { names: [...names] },
    keyPoints,
  };
}

function summarize(language: Language, turns: number, topics: string[], names: string[]): string {
  if (turns === 0) return '';
  const about = topics.slice(0, 3).join(', ');
  if (language === 'es') {
    return `${turns} ${turns === 1 ? 'mensaje' : 'mensajes'}${about ? ` sobre ${about}` : ''}${names.length ? `; personas: ${names.join(', ')}` : ''}.`;
  }
  return `${turns} ${turns === 1 ? 'message' : 'messages'}${about ? ` about ${about}` : ''}${names.length ? `; people: ${names.join(', ')}` : ''}.`;
}
