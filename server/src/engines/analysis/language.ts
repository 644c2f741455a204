import { franc } from 'franc';
import type { Language } from '@alma/protocol';
import { words } from './text.ts';

/**
 * es/en detection for chat lines. franc (trigram statistics) is reliable on sentences but guesses
 * on a few letters ("ok" → Spanish, "thanks a lot" → Spanish), so short lines are decided by
 * marker characters and common words, and anything without a clear signal keeps the caller's
 * fallback (the user's previous language): "ok", "jaja", "👍" must not flip the conversation.
 */

function wordSet(list: string): Set<string> {
  return new Set(list.split(/\s+/).filter(Boolean));
}

/** Frequent words that exist in only one of the two languages (folded: no accents). */
const SPANISH_WORDS = wordSet(`
  hola gracias adios buenas buenos dias noches tardes que como estoy estas esta estamos soy eres es
  llamo llamas mi mis tu tus yo el la los las un una de del en con por para pero muy tengo tienes hoy
  ayer manana bien mal si tambien porque cuando donde quien nada algo todo mucho poco ahora siento
  quiero puedo hace tiempo vale claro genial triste feliz cansado cansada chao hasta luego pues
  entonces nos vemos sabes puedes ella ellos y le lo se te al mas otra otro vez tal oye sobre examen
  ya oyes vuelto vuelta he han hemos perfecto aburro estado cuentame chiste dime recomiendas recomienda
  recomiendame alguna algun libro pelicula serie cancion quieres vamos tambien aqui alli eso esto
  cual cuales gusta encanta ayuda ayudame necesito sera seria mejor peor perdona disculpa verdad
  bonito animame leo veo
`);
const ENGLISH_WORDS = wordSet(`
  hi hello hey thanks thank you bye goodbye good morning night evening how what who where when why the
  and is are am i'm im i my your you're name it it's this that with for of to in on at but very really
  have has don't do does not today yesterday tomorrow fine well yes feel feeling want can can't
  weather sad happy tired great see later so just about there they we she was were be been will
  would lot again tell joke recommend any book movie song could please help back doing what's
  something anything got back hear okay perfect anyway hug big cheer nice funny watch read show
`);

const SPANISH_MARKS = /[ñáéíóúü]/i;
/** Opening ¿ and ¡ exist only in Spanish: decisive on their own (issue 11: "Ya he vuelto. ¿Me oyes?"). */
const SPANISH_OPENERS = /[¿¡]/;

/** Below this many letters franc's vote is ignored; below FRANC_FULL_LETTERS it counts half. */
const FRANC_MIN_LETTERS = 12;
const FRANC_FULL_LETTERS = 30;

export function detectLanguage(text: string, fallback: Language): Language {
  return languageSignal(text) ?? fallback;
}

/** The language a line's own words point to, or null when they give no signal (SPEC.md C-18). */
export function languageSignal(text: string): Language | null {
  let score = 0; // > 0 Spanish, < 0 English
  if (SPANISH_MARKS.test(text)) score += 2;
  if (SPANISH_OPENERS.test(text)) score += 3;
  const tokens = words(text);
  for (const token of tokens) {
    if (SPANISH_WORDS.has(token)) score += 1;
    if (ENGLISH_WORDS.has(token)) score -= 1;
  }

  const letters = (text.match(/\p{L}/gu) ?? []).length;
  // Worth two common words: strong on sentences, but the word lists catch short English lines
  // that franc reads as Spanish. Trigrams on a short line are a weak signal: one common word's worth.
  const weight = letters >= FRANC_FULL_LETTERS ? 2 : 1;
  // franc is most of this function's time (issue 14: ~13 ms of main thread in a burst of 200
  // sends): asked only when its vote could still decide, or flip, the words' verdict.
  if (letters >= FRANC_MIN_LETTERS && Math.abs(score) <= weight) {
    const guess = franc(text, { only: ['spa', 'eng'], minLength: 1 });
    if (guess === 'spa') score += weight;
    if (guess === 'eng') score -= weight;
  }

  if (score > 0) return 'es';
  if (score < 0) return 'en';
  return null;
}
