import { describe, expect, it } from 'vitest';
import { extractName, understand } from './intents.ts';
import { extractTopics } from './topics.ts';

describe('extractName', () => {
  it.each([
    ['Me llamo Lucía', 'Lucía'],
    ['me llamo ana', 'Ana'],
    ['Hola, soy Ana', 'Ana'],
    ['Mi nombre es Pedro y vivo en Lima', 'Pedro'],
    ['my name is tom', 'Tom'],
    ["Hi, I'm Ana", 'Ana'],
    ['call me Sam', 'Sam'],
  ])('finds the name in %j', (text, name) => {
    expect(extractName(text)).toBe(name);
  });

  it.each([
    "I'm tired",
    "I'm so tired",
    'soy profesora',
    'Soy de Madrid',
    "I'm Fine",
    'I am happy',
    'Soy Feliz',
    'estoy bien',
  ])('finds no name in %j', (text) => {
    expect(extractName(text)).toBeNull();
  });
});

describe('extractTopics', () => {
  it('turns possessives around and keeps names with people', () => {
    expect(extractTopics('Mi mejor amiga Sara se muda').map((t) => t.phrase)).toEqual([
      'tu mejor amiga Sara',
    ]);
    expect(extractTopics('my job is killing me').map((t) => t.phrase)).toEqual(['your job']);
    expect(extractTopics('mis padres vienen a cenar')[0]).toMatchObject({
      phrase: 'tus padres',
      person: true,
    });
  });

  it('accepts articles only for everyday life events', () => {
    expect(extractTopics('Tengo una entrevista mañana').map((t) => t.phrase)).toEqual(['la entrevista']);
    expect(extractTopics('I have an exam tomorrow').map((t) => t.phrase)).toEqual(['the exam']);
    expect(extractTopics('the thing is weird')).toEqual([]);
    expect(extractTopics('mi nombre es Ana')).toEqual([]);
  });
});

describe('understand', () => {
  it('reads several intents in one message', () => {
    const u = understand('Hola, me llamo Ana y estoy cansada', 'es', false);
    expect(u).toMatchObject({ greeting: true, name: 'Ana', feeling: 'tired' });
  });

  it.each(['Can you remember my name?', '¿Recuerdas mi nombre?', '¿Te acuerdas de mí?', 'What is my name?'])(
    'hears %j as asking to be remembered',
    (text) => {
      expect(understand(text, text.includes('?') && /[¿í]/.test(text) ? 'es' : 'en', false).rememberMe).toBe(
        true,
      );
    },
  );

  it('does not take a negated feeling', () => {
    expect(understand('no estoy cansado', 'es', true).feeling).toBeNull();
    expect(understand("I'm not tired", 'en', true).feeling).toBeNull();
  });

  it('knows what it cannot check', () => {
    expect(understand('¿Qué tiempo hace hoy en Madrid?', 'es', false).unavailable).toBe('weather');
    expect(understand("What's the latest news?", 'en', false).unavailable).toBe('news');
    expect(understand('¿Quién escribió el Quijote?', 'es', false).unavailable).toBe('facts');
    // Talking about the weather is not asking for it.
    expect(understand('hace buen tiempo hoy', 'es', false).unavailable).toBeNull();
  });

  it('says goodnight at the start as a greeting and later as a farewell', () => {
    expect(understand('Buenas noches', 'es', false)).toMatchObject({ greeting: true, farewell: false });
    expect(understand('Buenas noches', 'es', true)).toMatchObject({ greeting: false, farewell: true });
  });
});
