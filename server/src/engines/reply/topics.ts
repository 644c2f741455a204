import type { Language } from '@alma/protocol';
import { fold } from '../analysis/text.ts';

/**
 * Things and people the user talks about, so the companion can ask about them later ("¿Cómo
 * sigue lo de tu examen?"). Deliberately simple noun spotting: a possessive ("mi perro",
 * "my job") names something that belongs to the user's life; an article names a topic only
 * for nouns of everyday life events ("el examen", "the interview"), because "the thing" is not.
 */
export interface Topic {
  /** Folded head noun, used to tell whether the topic comes up again. */
  key: string;
  /** Ready to use in a reply, from the companion's side: "tu examen", "your sister Ana". */
  phrase: string;
  person: boolean;
  language: Language;
}

const list = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

const ES_PEOPLE = list(`amigo amiga amigos amigas madre padre mama papa padres hermano hermana hermanos novio
  novia pareja jefe jefa hijo hija hijos abuelo abuela abuelos esposo esposa marido mujer primo prima tio tia
  companero companera vecino vecina profesor profesora`);
const ES_EVENTS = list(`examen examenes entrevista trabajo viaje boda cumpleanos mudanza proyecto clase clases
  partido concierto operacion cita medico reunion presentacion tesis oposiciones vacaciones ruptura perro gato
  curso carrera`);
/** Words after "mi" that are not topics: "mi nombre es", "mi vida" (endearment), "mi opinión". */
const ES_NOT_TOPICS = list('nombre vida parte opinion culpa lado favor amor cabeza alma');
const ES_MODIFIERS = list(`mejor nuevo nueva viejo vieja gran pequeno pequena primer primera querido querida
  antiguo antigua`);

const EN_PEOPLE = list(`friend friends mom mum mother dad father parents brother sister brothers sisters
  boyfriend girlfriend partner boss son daughter kids grandma grandmother grandpa grandfather husband wife
  cousin aunt uncle colleague coworker neighbour neighbor teacher`);
const EN_EVENTS = list(`exam exams test interview job trip wedding birthday move project class classes game
  match concert surgery operation appointment date doctor meeting presentation thesis holiday vacation breakup
  dog cat course degree`);
const EN_NOT_TOPICS = list('name life own mind fault god way self turn bad opinion head soul');
const EN_MODIFIERS = list('best new old little big first dear favorite favourite older younger');

const RULES = {
  es: {
    possessives: list('mi mis'),
    articles: list('el la los las un una'),
    people: ES_PEOPLE,
    events: ES_EVENTS,
    notTopics: ES_NOT_TOPICS,
    modifiers: ES_MODIFIERS,
  },
  en: {
    possessives: list('my'),
    articles: list('the a an'),
    people: EN_PEOPLE,
    events: EN_EVENTS,
    notTopics: EN_NOT_TOPICS,
    modifiers: EN_MODIFIERS,
  },
} as const;

interface Token {
  raw: string;
  folded: string;
  start: number;
  end: number;
}

function tokenize(text: string): Token[] {
  return [...text.matchAll(/\p{L}+/gu)].map((m) => ({
    raw: m[0],
    folded: fold(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** Topics in `text`, by both languages' rules, without duplicates. */
export function extractTopics(text: string): Topic[] {
  const tokens = tokenize(text);
  const found = new Map<string, Topic>();
  for (const language of ['es', 'en'] as const) {
    const rules = RULES[language];
    tokens.forEach((token, i) => {
      const isPossessive = rules.possessives.has(token.folded);
      if (!isPossessive && !rules.articles.has(token.folded)) return;
      // "mi mejor amiga": the head noun comes after the modifier.
      let modifier = tokens[i + 1];
      let head = tokens[i + 2];
      if (!modifier || !rules.modifiers.has(modifier.folded) || !head) {
        head = modifier;
        modifier = undefined;
      }
      if (!head || head.folded.length < 3 || rules.notTopics.has(head.folded) || found.has(head.folded))
        return;
      const person = rules.people.has(head.folded);
      // Articles only introduce known life events and people; "the thing" is not a topic.
      if (!isPossessive && !person && !rules.events.has(head.folded)) return;

      const words = [
        isPossessive ? yours(language, token.folded) : definite(language, token.folded, head.folded),
        ...(modifier ? [modifier.raw.toLowerCase()] : []),
        head.raw.toLowerCase(),
      ];
      // "mi amiga Sara": a capitalised word right after a person is their name.
      const next = tokens[tokens.indexOf(head) + 1];
      if (person && next && /^\p{Lu}/u.test(next.raw) && /^\s+$/.test(text.slice(head.end, next.start))) {
        words.push(next.raw);
      }
      found.set(head.folded, { key: head.folded, phrase: words.join(' '), person, language });
    });
  }
  return [...found.values()];
}

function yours(language: Language, possessive: string): string {
  if (language === 'en') return 'your';
  return possessive === 'mis' ? 'tus' : 'tu';
}

/** "un examen" is "el examen" when the companion brings it up again. */
function definite(language: Language, article: string, noun: string): string {
  if (language === 'en') return 'the';
  if (article !== 'un' && article !== 'una') return article;
  const plural = noun.endsWith('s') && noun !== 'tesis';
  if (article === 'una') return plural ? 'las' : 'la';
  return plural ? 'los' : 'el';
}
