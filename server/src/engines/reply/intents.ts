import type { Language } from '@alma/protocol';
import { analyzeEmotion, type EmotionResult } from '../analysis/emotion.ts';
import { fold, words } from '../analysis/text.ts';
import { extractTopics, type Topic } from './topics.ts';

/**
 * What a user message is doing, read by patterns in both languages (users mix them, and the
 * caller's language guess can be wrong on a short line). A message can do several things at
 * once ("Hola, me llamo Ana y estoy cansada"); the composer decides which one leads.
 */
export type Feeling = 'sad' | 'happy' | 'angry' | 'anxious' | 'tired' | 'lonely';
/** Things an offline engine cannot know; the companion says so instead of inventing. */
export type Unavailable = 'weather' | 'news' | 'time' | 'web' | 'facts';
export type QuestionKind = 'opinion' | 'advice' | 'open';

/** Common requests the builtin engine answers itself (issue 11). */
export type Request = 'joke' | 'recommend' | 'kind';

export interface Understanding {
  /** "Cuéntame un chiste", "can you recommend a book?" */
  request: Request | null;
  greeting: boolean;
  farewell: boolean;
  thanks: boolean;
  howAreYou: boolean;
  /** "Bien, ¿y tú?": the user answered and asks back; asking them again would not listen. */
  askedBack: boolean;
  /** "¿Cómo te llamas?", "what are you?" */
  askIdentity: boolean;
  /** "¿Qué puedes hacer?" */
  askAbilities: boolean;
  /** "¿Te acuerdas de mí?", "what's my name?" */
  rememberMe: boolean;
  laugh: boolean;
  /** A name the user gives for themself in this message. */
  name: string | null;
  feeling: Feeling | null;
  unavailable: Unavailable | null;
  question: QuestionKind | null;
  topics: Topic[];
  emotion: EmotionResult;
}

/** Patterns run on folded text: lower case, no accents, words joined by single spaces. */
const GREETING =
  /^(?:\w+ )?(hola+|holi|buenas(?! noches)|buenos dias|buenas tardes|hi|hii+|hello|hey|heya|hiya|howdy|good morning|good afternoon|good evening)\b/;
const FAREWELL =
  /\b(adios|chao|chau|hasta luego|hasta manana|hasta pronto|hasta la proxima|nos vemos|me voy|me tengo que ir|bye|goodbye|see you|see ya|good night|gotta go|i have to go|i must go|talk later|ttyl)\b/;
const NIGHT = /\bbuenas noches\b/;
const THANKS = /\b(gracias|te lo agradezco|muy amable|thank you|thanks|thx|ty|appreciate it)\b/;
const HOW_ARE_YOU =
  /\b(como estas|como te va|como andas|como te encuentras|como te sientes|que tal estas|que tal te va|que tal andas|how are you|how are u|how's it going|how is it going|how you doing|how are you doing|how do you feel|what's up|whats up|sup)\b/;
const BARE_QUE_TAL = /^(?:hola |buenas )?que tal(?: todo)?$/;
const ASK_IDENTITY =
  /\b(como te llamas|cual es tu nombre|tu nombre|quien eres|que eres|eres (?:una? )?(?:persona|humano|humana|robot|ia|bot|real|maquina|programa)|what's your name|what is your name|your name|who are you|what are you|are you (?:a |an )?(?:human|real|robot|bot|ai|person|machine|program))\b/;
const ASK_ABILITIES =
  /\b(que puedes hacer|que sabes hacer|para que sirves|como me puedes ayudar|en que me puedes ayudar|what can you do|how can you help|what are you able to do|what do you do|what are you for)\b/;
const REMEMBER_ME =
  /\b(te acuerdas de mi|me recuerdas|sabes como me llamo|sabes quien soy|sabes mi nombre|como me llamo|quien soy yo|recuerdas mi nombre|te acuerdas de mi nombre|do you remember me|remember me|remember my name|what's my name|what is my name|do you know my name|do you know who i am|who am i)\b|^how am i$/;
/** "Bien, ¿y tú?", "fine, and you?": the end of a line that answers and asks back. */
const ASKED_BACK = /\b(y tu|y usted|y a ti|y a usted|and you|what about you|how about you|and yourself)$/;
const JOKE = /\b(chistes?|algo gracioso|hazme reir|jokes?|something funny|make me laugh)\b/;
const WORKS =
  '(?:series?|pelis?|peliculas?|libros?|novelas?|canciones|cancion|musica|discos?|podcasts?|shows?|movies?|films?|books?|novels?|songs?|music|albums?)';
const RECOMMEND = new RegExp(
  '\\b(recomienda\\w*|recomiendame|recomendacion\\w*|sugiere\\w*|sugerencia\\w*|recommend\\w*|suggest\\w*|' +
    'what should i (?:read|watch|listen)|algo (?:bueno )?(?:para|que) (?:leer|ver|escuchar)|' +
    `something (?:good )?to (?:read|watch|listen)|(?:alguna?|algun|any) (?:buen[oa]s? |good )?${WORKS}|` +
    `que ${WORKS} (?:veo|leo|escucho|me pongo|me recomiendas))\\b`,
);
/** "Dime algo bonito", "cheer me up": a kind word asked for. */
const KIND =
  /\b(algo bonito|algo lindo|algo bueno de mi|animame|hazme un cumplido|dime un piropo|subeme el animo|something nice|something sweet|cheer me up|compliment me|pay me a compliment|make me smile)\b/;
const LAUGH = /\b(ja(?:ja)+j?|je(?:je)+|ji(?:ji)+|ha(?:ha)+h?|he(?:he)+|lol|lmao|xd)\b/;

const UNAVAILABLE: [RegExp, Unavailable][] = [
  [
    /\b(el tiempo|que tiempo|clima|llover|llovera|llueve|temperatura|pronostico|weather|forecast|rain|raining|temperature|sunny)\b/,
    'weather',
  ],
  [/\b(noticias|titulares|elecciones|actualidad|news|headlines|election|elections|current events)\b/, 'news'],
  [
    /\b(que hora es|que hora tienes|que dia es hoy|que fecha es|what time is it|what's the time|what day is it|what's the date|today's date)\b/,
    'time',
  ],
  [
    /\b(internet|google|busca en|buscar en|buscame|navega|pagina web|enlace|link|website|search the web|search online|look up|look it up|browse|browsing)\b/,
    'web',
  ],
  [
    /\b(quien gano|resultado del partido|precio|precios|bolsa|bitcoin|capital de|cuantos habitantes|cuanto mide|who won|score|price|prices|stock|stocks|capital of|population|how tall is|how far is)\b/,
    'facts',
  ],
];
/** A fact question ("¿Quién escribió el Quijote?") that is not about the user or the companion. */
const FACT_QUESTION =
  /^(quien|cuando|donde|cual|cuanto|cuantos|cuantas|who|when|where|which|how many|how much|what year|what is the|what's the)\b/;
const PERSONAL = /\b(tu|tus|te|ti|eres|estas|tienes|you|your|you're|mi|mis|me|my|i|i'm|soy|estoy)\b/;
const REQUEST = /\b(dime|dame|busca|buscame|consulta|consultame|mira|tell me|look up|search|check|find)\b/;
const OPINION =
  /\b(que opinas|que piensas|te gusta|te gustan|prefieres|tu favorit[oa]|what do you think|do you like|do you prefer|your favou?rite)\b/;
const ADVICE =
  /\b(que hago|que deberia|que me recomiendas|me ayudas|ayudame|un consejo|algun consejo|what should i|should i|what do i do|help me|any advice|some advice)\b/;

const FEELING_WORDS: [RegExp, Feeling][] = [
  [
    /\b(cansad[oa]s?|agotad[oa]s?|tengo sueno|sin energia|reventad[oa]|tired|exhausted|sleepy|worn out|no energy|drained)\b/,
    'tired',
  ],
  [
    /\b(soledad|me siento sol[oa]|estoy sol[oa]|muy sol[oa]|lonely|feel alone|i'm alone|all alone|nadie me|no one cares|nobody cares)\b/,
    'lonely',
  ],
];
const NEGATED_FEELING = /\b(no|not|never|nunca|ni|isn't|i'm not|no estoy)\b(?: \w+)?$/;

/** Words that follow "soy"/"I'm" but are not names even when a user capitalises them. */
const NOT_NAMES = new Set(
  `ok okay fine good great bien mal here back sorry not so very just going from in at a an the and alma
  tired sad happy angry new yes no muy un una de del el la english spanish american british mexican espanol
  espanola mexicano mexicana argentino argentina colombiano colombiana chileno chilena peruano peruana feliz
  triste estudiante profesor profesora medico medica ingeniero ingeniera`.split(/\s+/),
);

/** "me llamo ana" is unambiguous, so any word after it is a name; "soy ana" only if capitalised. */
const NAME_CLEAR =
  /\b(?:me llamo|mi nombre es|ll[aá]mame|puedes llamarme|my name is|my name's|call me)\s+(\p{L}[\p{L}'-]*)/iu;
const NAME_CAPITALISED =
  /(?:^|[^\p{L}])(?:[Ss]oy|I'm|I’m|I am|[Tt]his is|[Ii]t's|[Ii]t’s)\s+(\p{Lu}[\p{Ll}'-]+)/u;

export function extractName(text: string): string | null {
  const clear = NAME_CLEAR.exec(text)?.[1];
  const candidate = clear ?? NAME_CAPITALISED.exec(text)?.[1];
  if (!candidate || candidate.length < 2 || NOT_NAMES.has(fold(candidate))) return null;
  return candidate.charAt(0).toUpperCase() + candidate.slice(1).toLowerCase();
}

function feelingOf(folded: string, emotion: EmotionResult): Feeling | null {
  for (const [pattern, feeling] of FEELING_WORDS) {
    const match = pattern.exec(folded);
    if (match && !NEGATED_FEELING.test(folded.slice(0, match.index).trimEnd())) return feeling;
  }
  switch (emotion.emotion) {
    case 'sad':
      return 'sad';
    case 'happy':
    case 'excited':
      return 'happy';
    case 'angry':
      return 'angry';
    case 'fearful':
      return 'anxious';
    default:
      return null;
  }
}

export function understand(text: string, language: Language, hasHistory: boolean): Understanding {
  const folded = words(text).join(' ');
  const isQuestion = /\?\s*$/.test(text) || text.trimStart().startsWith('¿');
  const emotion = analyzeEmotion(text, language);

  const rememberMe = REMEMBER_ME.test(folded);
  // "Buenas noches" opens a chat at night and closes one later on.
  const night = NIGHT.test(folded);
  const unavailableKind = UNAVAILABLE.find(([pattern]) => pattern.test(folded))?.[1] ?? null;
  const asks = isQuestion || REQUEST.test(folded);
  const factQuestion = isQuestion && FACT_QUESTION.test(folded) && !PERSONAL.test(folded);

  const askIdentity = ASK_IDENTITY.test(folded) && !rememberMe;
  const question: QuestionKind | null = !isQuestion
    ? ADVICE.test(folded)
      ? 'advice'
      : null
    : OPINION.test(folded)
      ? 'opinion'
      : ADVICE.test(folded)
        ? 'advice'
        : 'open';

  return {
    request: JOKE.test(folded)
      ? 'joke'
      : KIND.test(folded)
        ? 'kind'
        : RECOMMEND.test(folded)
          ? 'recommend'
          : null,
    greeting: GREETING.test(folded) || (night && !hasHistory),
    farewell: FAREWELL.test(folded) || (night && hasHistory),
    thanks: THANKS.test(folded),
    howAreYou: HOW_ARE_YOU.test(folded) || BARE_QUE_TAL.test(folded) || ASKED_BACK.test(folded),
    askedBack: ASKED_BACK.test(folded),
    askIdentity,
    askAbilities: ASK_ABILITIES.test(folded),
    rememberMe,
    laugh: LAUGH.test(folded),
    name: rememberMe ? null : extractName(text),
    feeling: feelingOf(folded, emotion),
    unavailable: asks && unavailableKind ? unavailableKind : factQuestion ? 'facts' : null,
    question,
    topics: extractTopics(text),
    emotion,
  };
}
