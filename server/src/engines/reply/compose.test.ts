import { describe, expect, it } from 'vitest';
import { SPANISH_PHRASES } from './phrases.es.ts';
import { ENGLISH_PHRASES } from './phrases.en.ts';
import { PERSONALITIES, type Language, type Message, type Personality } from '@alma/protocol';
import { ENGLISH_SHORT, SPANISH_SHORT } from '../../test-support/short-messages.ts';
import { detectLanguage } from '../analysis/language.ts';
import { composeReply, type ComposedReply } from './compose.ts';
import { normaliseSentence, splitSentences } from './memory.ts';

type Turn = Pick<Message, 'role' | 'content' | 'language'>;

/** Plays a scripted conversation, feeding each reply back as history, like the chat module does. */
function converse(lines: string[], language: Language, personality: Personality = 'default') {
  const history: Turn[] = [];
  const replies: ComposedReply[] = [];
  for (const text of lines) {
    const reply = composeReply({ text, language, personality, history });
    replies.push(reply);
    history.push(
      { role: 'user', content: text, language },
      { role: 'assistant', content: reply.text, language },
    );
  }
  return replies;
}

const reply = (
  text: string,
  language: Language,
  personality: Personality = 'default',
  history: Turn[] = [],
) => composeReply({ text, language, personality, history });

describe('composeReply', () => {
  describe('answers in the requested language', () => {
    const spanish = [
      'Hola',
      'Estoy triste hoy',
      '¿Qué puedes hacer?',
      'Mi perro se llama Toby',
      'gracias',
      '¿Qué opinas del cine?',
    ];
    const english = [
      'Hello',
      'I feel sad today',
      'What can you do?',
      'My dog is called Toby',
      'thanks',
      'What do you think about films?',
    ];
    it.each(PERSONALITIES)('as %s', (personality) => {
      for (const text of spanish)
        expect(detectLanguage(reply(text, 'es', personality).text, 'en')).toBe('es');
      for (const text of english)
        expect(detectLanguage(reply(text, 'en', personality).text, 'es')).toBe('en');
    });

    it('with the words of that language', () => {
      expect(reply('¿Quién eres?', 'es').text).toMatch(/Soy Alma|Me llamo Alma/);
      expect(reply('Who are you?', 'en').text).toMatch(/I am Alma|My name is Alma/);
      expect(reply('Hola', 'es', 'formal').text).toMatch(/usted|saludarle/);
    });
  });

  it('gives each personality its own voice', () => {
    for (const [text, language] of [
      ['Hola', 'es'],
      ['Estoy muy triste', 'es'],
      ['Hello', 'en'],
      ["I'm worried about tomorrow", 'en'],
    ] as const) {
      const texts = PERSONALITIES.map((personality) => reply(text, language, personality).text);
      expect(new Set(texts).size).toBe(PERSONALITIES.length);
    }
  });

  it('remembers the user name across turns', () => {
    const es = converse(
      ['Hola', 'Me llamo Lucía', 'Hoy fui al cine', 'Estuvo bien', '¿Te acuerdas de mí?'],
      'es',
    );
    expect(es[1]?.text).toContain('Lucía');
    expect(es.at(-1)?.text).toContain('Lucía');
    const en = converse(
      ['Hi', 'My name is Lucía', 'I went to the cinema', 'It was fine', 'Who am I?'],
      'en',
      'technical',
    );
    expect(en.at(-1)?.text).toContain('Lucía');
  });

  it('asks for the name when it does not know it, instead of guessing', () => {
    expect(reply('¿Sabes cómo me llamo?', 'es').text).toMatch(/nombre|llamas/);
    expect(reply("What's my name?", 'en').text).toMatch(/name/);
  });

  it('does not take "I\'m tired" for a name', () => {
    const [, later] = converse(["I'm tired", 'who am I?'], 'en');
    expect(later?.text).not.toMatch(/Tired/);
  });

  it('comes back to a topic mentioned earlier', () => {
    const es = converse(['Mañana tengo el examen de historia', 'Gracias', 'Hola otra vez'], 'es');
    expect(
      es
        .slice(1)
        .map((r) => r.text)
        .join(' '),
    ).toMatch(/lo del examen/);
    const en = converse(['My sister is visiting next week', 'ok', 'thanks'], 'en');
    expect(
      en
        .slice(1)
        .map((r) => r.text)
        .join(' '),
    ).toMatch(/your sister/);
  });

  it('never repeats a sentence over ten similar turns', () => {
    const scripts: Record<Language, string[]> = {
      es: [
        'Estoy triste',
        'Sigo triste',
        'Hoy estoy muy triste',
        'La verdad es que estoy triste',
        'Me siento triste otra vez',
        'Estoy triste por todo',
        'Todavía estoy triste',
        'Qué triste estoy',
        'Estoy triste, no sé',
        'Triste, como siempre',
      ],
      en: [
        "I'm sad",
        'Still sad',
        "I'm really sad today",
        'Honestly I feel sad',
        'Feeling sad again',
        "I'm sad about everything",
        "I'm still sad",
        'So sad',
        "I'm sad, I don't know",
        'Sad, as always',
      ],
    };
    for (const language of ['es', 'en'] as const) {
      for (const personality of PERSONALITIES) {
        const sentences = converse(scripts[language], language, personality).flatMap((r) =>
          splitSentences(r.text).map(normaliseSentence),
        );
        expect(new Set(sentences).size, `${language} ${personality}`).toBe(sentences.length);
      }
    }
  });

  it('says plainly that it cannot check the weather or invent facts', () => {
    for (const personality of PERSONALITIES) {
      const es = reply('¿Qué tiempo va a hacer mañana?', 'es', personality).text;
      expect(es).toMatch(/el tiempo|al tiempo|del tiempo/);
      expect(es).toMatch(/no puedo|no tengo|sin internet|no accedo/i);
      const en = reply("What's the weather like today?", 'en', personality).text;
      expect(en).toMatch(/the weather/);
      expect(en).toMatch(/can't|cannot|no access|no way|don't/i);
    }
    expect(reply('Who won the football match yesterday?', 'en').text).toMatch(
      /can't|cannot|no access|no way|rather not guess/i,
    );
  });

  it('is honest about what it is', () => {
    expect(reply('¿Eres una persona?', 'es').text).toMatch(/Alma/);
    expect(reply('What can you do?', 'en').text).toMatch(/internet|offline/);
  });

  it('is deterministic', () => {
    const history: Turn[] = [
      { role: 'user', content: 'Hola, soy Marta', language: 'es' },
      { role: 'assistant', content: '¡Un placer conocerte, Marta!', language: 'es' },
    ];
    const request = {
      text: 'Estoy un poco cansada',
      language: 'es',
      personality: 'creative',
      history,
    } as const;
    expect(composeReply(request)).toEqual(composeReply(request));
  });

  it('keeps replies short', () => {
    for (const r of converse(
      ['Hola', 'Me llamo Ana y estoy cansada', 'mi jefe me grita', '¿qué hago?', 'adiós'],
      'es',
    )) {
      expect(splitSentences(r.text).length).toBeLessThanOrEqual(3);
    }
  });

  describe('emotion and gesture', () => {
    it('comforts a sad message', () => {
      const r = reply('Estoy muy triste, mi abuela está en el hospital', 'es');
      expect(['sad', 'calm']).toContain(r.emotion);
      expect(['comforting', 'kneeling']).toContain(r.gesture);
    });

    it('waves hello and goodbye', () => {
      expect(reply('Hola', 'es').gesture).toBe('greeting');
      expect(reply('Hello!', 'en').gesture).toBe('greeting');
      expect(
        reply('Adiós, hasta mañana', 'es', 'default', [{ role: 'user', content: 'Hola', language: 'es' }])
          .gesture,
      ).toBe('goodbye');
      expect(reply('bye!', 'en').gesture).toBe('goodbye');
    });

    it('celebrates good news and laughs at a joke', () => {
      expect(reply('¡Me han dado el trabajo! ¡Estoy feliz!', 'es').gesture).toMatch(/celebration|clapping/);
      expect(reply('jajaja', 'es').gesture).toBe('laughing');
    });

    it('shakes its head at what it cannot do', () => {
      expect(reply('What is the weather in Paris?', 'en').gesture).toBe('shaking');
    });
  });
});

describe('common requests (issue 11)', () => {
  const reply = (text: string, language: 'es' | 'en') =>
    composeReply({ text, language, personality: 'default', history: [] });

  it.each([
    ['es', 'Cuéntame un chiste', SPANISH_PHRASES.jokes],
    ['es', '¿Me cuentas un chiste?', SPANISH_PHRASES.jokes],
    ['en', 'Tell me a joke', ENGLISH_PHRASES.jokes],
    ['en', 'Make me laugh', ENGLISH_PHRASES.jokes],
    ['es', '¿Me recomiendas un libro?', SPANISH_PHRASES.recommendations],
    ['es', 'Recomiéndame una película', SPANISH_PHRASES.recommendations],
    ['en', 'Can you recommend a book?', ENGLISH_PHRASES.recommendations],
    ['en', 'What should I watch tonight?', ENGLISH_PHRASES.recommendations],
  ] as const)('%s %j gets one from its pool', (language, text, pool) => {
    expect(pool).toContain(reply(text, language).text);
  });

  /**
   * The whole way a short line takes (C-18): its language read from its words, falling back to
   * the session's (here the other language, so a wrong guess shows), then the answer.
   */
  const es = SPANISH_PHRASES;
  const en = ENGLISH_PHRASES;
  const howAreYou = (book: typeof es) => [...book.voices.default.howAreYou, ...book.voices.default.smallTalk];
  it.each([
    ['Cuéntame un chiste', 'es', es.jokes],
    ['Otro chiste, porfa', 'es', es.jokes],
    ['Hazme reír', 'es', es.jokes],
    ['¿Alguna serie que me guste?', 'es', es.recommendations],
    ['¿Qué libro leo este verano?', 'es', es.recommendations],
    ['Algo para ver esta noche', 'es', es.recommendations],
    ['Dime algo bonito', 'es', es.kindWords],
    ['Anímame un poco', 'es', es.kindWords],
    ['¿Cómo estás?', 'es', howAreYou(es)],
    ['Bien, ¿y tú?', 'es', howAreYou(es)],
    ['¿Qué tal te va?', 'es', howAreYou(es)],
    ['Tell me a joke', 'en', en.jokes],
    ['Something funny please', 'en', en.jokes],
    ['Any good books?', 'en', en.recommendations],
    ['Something to watch tonight?', 'en', en.recommendations],
    ['Say something nice', 'en', en.kindWords],
    ['Cheer me up', 'en', en.kindWords],
    ['How are you?', 'en', howAreYou(en)],
    ['Fine, and you?', 'en', howAreYou(en)],
    ['How is it going?', 'en', howAreYou(en)],
  ] as const)('C-18 %j is answered in %s from its pool', (text, language, pool) => {
    const other = language === 'es' ? 'en' : 'es';
    const detected = detectLanguage(text, other);
    expect(detected).toBe(language);
    const answer = reply(text, detected).text;
    expect(pool.some((p) => answer.startsWith(p))).toBe(true);
  });

  it.each([
    ...SPANISH_SHORT.map((text) => [text, 'es'] as const),
    ...ENGLISH_SHORT.map((text) => [text, 'en'] as const),
  ])(
    'C-18 %j (a short %s line, in a session of the other language) is answered in its language',
    (text, language) => {
      const other = language === 'es' ? 'en' : 'es';
      const answer = reply(text, detectLanguage(text, other)).text;
      expect(detectLanguage(answer, other), answer).toBe(language);
    },
  );

  it('"Bien, ¿y tú?" is answered without asking them back how they are', () => {
    for (const [text, language, book] of [
      ['Bien, ¿y tú?', 'es', es],
      ['Fine, and you?', 'en', en],
    ] as const) {
      const answer = reply(text, language).text;
      for (const ask of book.voices.default.askBack) expect(answer).not.toContain(ask);
    }
  });

  it('a statement that names a book is not a request for one', () => {
    expect(es.recommendations).not.toContain(reply('Estoy leyendo un buen libro', 'es').text);
  });

  it('a joke comes with a laugh, never "Qué interesante"', () => {
    const joke = reply('Cuéntame un chiste', 'es');
    expect(joke.gesture).toBe('laughing');
    expect(joke.text).not.toMatch(/interesante/i);
  });
});
