import { describe, expect, it } from 'vitest';
import { ENGLISH_SHORT as ENGLISH, SPANISH_SHORT as SPANISH } from '../../test-support/short-messages.ts';
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
