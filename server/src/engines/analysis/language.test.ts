import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language.ts';

describe('detectLanguage', () => {
  it.each([
    'hola',
    'gracias',
    '¿qué tal?',
    'me llamo Ana',
    'estoy cansada',
    '¡genial!',
    'buenas noches',
    'como estas',
  ])('reads the short Spanish line %j as Spanish', (text) => {
    expect(detectLanguage(text, 'en')).toBe('es');
  });

  it.each([
    'hi',
    'hello',
    'thanks a lot',
    "I'm tired",
    'my name is Ana',
    'how are you?',
    'good night',
    'see you later',
  ])('reads the short English line %j as English', (text) => {
    expect(detectLanguage(text, 'es')).toBe('en');
  });

  it.each([
    [
      'es',
      'Ayer estuve toda la tarde estudiando para el examen de historia y al final me fue bastante bien.',
    ],
    ['es', 'Mi perro se escapó esta mañana del jardín y lo estuvimos buscando por todo el barrio'],
    ['en', 'Yesterday I spent the whole afternoon studying for the history exam and it went rather well.'],
    ['en', 'My dog ran away from the garden this morning and we looked for him all over the neighbourhood'],
  ] as const)('reads a long %s sentence', (language, text) => {
    expect(detectLanguage(text, language === 'es' ? 'en' : 'es')).toBe(language);
  });

  it.each(['ok', 'jaja', '👍', '...', '', 'lol', 'Toby'])(
    'keeps the fallback on the ambiguous %j',
    (text) => {
      expect(detectLanguage(text, 'es')).toBe('es');
      expect(detectLanguage(text, 'en')).toBe('en');
    },
  );
});

/**
 * Issue 11: short everyday messages, each read against the other language's fallback, so a wrong
 * reading cannot hide behind the fallback. Lines without a signal keep the fallback (C-18).
 */
describe('detectLanguage on short everyday messages (SPEC C-18)', () => {
  const SPANISH = [
    'Ya he vuelto. ¿Me oyes?',
    'Cuéntame un chiste',
    '¿Me recomiendas un libro?',
    'Recomiéndame una película',
    'Hola, ¿cómo estás?',
    '¿Qué tal estás?',
    'Bien, ¿y tú?',
    'Buenos días',
    'Buenas tardes',
    'Hasta mañana',
    'Nos vemos luego',
    'Muchas gracias',
    'Te echo de menos',
    'Estoy cansado',
    'Tengo sueño',
    '¿Qué haces?',
    'Dime algo bonito',
    'Otro chiste, porfa',
    '¿Sabes cocinar?',
    '¿Dónde vives?',
    'Me aburro',
    'Necesito ayuda',
    '¿Me ayudas?',
    'Vale, perfecto',
    'Claro que sí',
    'No lo sé',
    'Qué bonito',
    '¡Qué bien!',
    'Estoy contenta',
    'Hoy llueve',
    'Tengo hambre',
    '¿Quién eres?',
    '¿Cómo te llamas?',
    'Me llamo Pablo',
    'Perdona, no te entendí',
    '¿De verdad?',
    'Pues nada',
    'Ya estoy aquí',
    'Adiós, cuídate',
    'Un abrazo',
    '¿Alguna serie que me guste?',
    'Me gusta la música',
  ];
  const ENGLISH = [
    "I'm back. Can you hear me?",
    'Tell me a joke',
    'Can you recommend a book?',
    'Recommend me a movie',
    'Hi, how are you?',
    "What's up?",
    'Fine, and you?',
    'Good morning',
    'Good evening',
    'See you tomorrow',
    'Talk to you later',
    'Thanks so much',
    'I miss you',
    "I'm tired",
    "I'm sleepy",
    'What are you doing?',
    'Say something nice',
    'Another joke please',
    'Can you cook?',
    'Where do you live?',
    "I'm bored",
    'I need help',
    'Can you help me?',
    'Okay, perfect',
    'Of course',
    "I don't know",
    'That is lovely',
    'How nice!',
    "I'm happy",
    "It's raining today",
    "I'm hungry",
    'Who are you?',
    "What's your name?",
    'My name is Paul',
    "Sorry, I didn't get that",
    'Really?',
    'Anyway',
    "I'm here now",
    'Bye, take care',
    'Big hug',
    'Any show I would like?',
    'I like music',
  ];

  it('has at least 40 of each', () => {
    expect(SPANISH.length).toBeGreaterThanOrEqual(40);
    expect(ENGLISH.length).toBeGreaterThanOrEqual(40);
  });
  it.each(SPANISH)('reads %j as Spanish in an English session', (text) => {
    expect(detectLanguage(text, 'en')).toBe('es');
  });
  it.each(ENGLISH)('reads %j as English in a Spanish session', (text) => {
    expect(detectLanguage(text, 'es')).toBe('en');
  });
  it.each(['ok', 'jaja', '👍', 'Pablo', '???', 'lol'])('keeps the session language for %j', (text) => {
    expect(detectLanguage(text, 'es')).toBe('es');
    expect(detectLanguage(text, 'en')).toBe('en');
  });
});
