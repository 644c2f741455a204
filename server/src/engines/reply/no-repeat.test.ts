import type { Language, Personality } from '@alma/protocol';
import { describe, expect, it } from 'vitest';
import { composeReply } from './compose.ts';
import { normaliseSentence, splitSentences } from './memory.ts';
import type { ReplyRequest } from './types.ts';

/**
 * Issue 4: "no repeated sentence within 20 turns". A scripted 20-turn conversation per language
 * and personality — small talk, feelings, topics, questions the engine cannot answer offline,
 * thanks and repeats of the same kind of line — with the history a session would pass (the chat
 * service sends the last 40 messages: twenty exchanges). No companion sentence may come twice.
 */
const SCRIPTS: Record<Language, string[]> = {
  es: [
    '¡Hola! Me llamo Lucía',
    '¿Cómo estás?',
    'Hoy estoy un poco triste',
    'Mañana tengo mi examen de historia',
    'Sigo triste, la verdad',
    '¿Qué tiempo hace mañana?',
    'Gracias',
    'Mi amiga Sara me ayuda a estudiar',
    'Estoy cansada',
    'jajaja',
    '¿Qué me recomiendas para dormir mejor?',
    'Gracias otra vez',
    'Estoy muy triste hoy',
    '¿Te acuerdas de mi nombre?',
    'Ok',
    'Vale',
    'Sí',
    'Estoy nerviosa por el examen',
    'Gracias por escucharme',
    'Adiós',
  ],
  en: [
    'Hi there, my name is Sam',
    'How are you?',
    'I feel a bit sad today',
    'I have a job interview tomorrow',
    'Still sad, honestly',
    "What's the weather like tomorrow?",
    'Thanks',
    'My friend Tom is helping me prepare',
    'I am tired',
    'haha',
    'What do you recommend to sleep better?',
    'Thanks again',
    'I am very sad today',
    'Do you remember my name?',
    'Ok',
    'Sure',
    'Yes',
    'I am nervous about the interview',
    'Thank you for listening',
    'Bye',
  ],
};

type Turn = ReplyRequest['history'][number];

function converse(language: Language, personality: Personality): { turns: Turn[]; repeats: string[] } {
  const turns: Turn[] = [];
  const seen = new Map<string, string>();
  const repeats: string[] = [];
  for (const text of SCRIPTS[language]) {
    const reply = composeReply({ text, language, personality, history: turns.slice(-40) });
    for (const sentence of splitSentences(reply.text)) {
      const key = normaliseSentence(sentence);
      if (seen.has(key)) repeats.push(`"${sentence}" (reply to "${text}")`);
      seen.set(key, sentence);
    }
    turns.push(
      { role: 'user', content: text, language },
      { role: 'assistant', content: reply.text, language },
    );
  }
  return { turns, repeats };
}

describe('the builtin companion never repeats a sentence within 20 turns', () => {
  for (const language of ['es', 'en'] as const) {
    for (const personality of ['default', 'formal', 'creative', 'technical'] as const) {
      it(`${language}, ${personality}`, () => {
        const { turns, repeats } = converse(language, personality);
        expect(turns.filter((t) => t.role === 'assistant')).toHaveLength(20);
        expect(repeats).toEqual([]);
      });
    }
  }
});
