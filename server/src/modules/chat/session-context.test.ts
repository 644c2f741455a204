import { describe, expect, it } from 'vitest';
import { updateContext } from './session-context.ts';

const exchange = (userText: string, language: 'es' | 'en' = 'es') => ({
  userText,
  language,
  dominantEmotion: null,
});

describe('updateContext (C-11)', () => {
  it('keeps names and topics, not the words people use to ask about them', () => {
    let context = updateContext(null, exchange('Hola, me llamo Lucía y mañana tengo un examen'));
    context = updateContext(context, exchange('¿Recuerdas cómo me llamo?'));
    context = updateContext(
      context,
      exchange('Do you remember what I am called? Do you know my name?', 'en'),
    );
    expect(context.names).toContain('Lucía');
    for (const word of ['llamo', 'recuerdas', 'called', 'remember', 'know', 'name']) {
      expect(context.topics.map((t) => t.toLowerCase())).not.toContain(word);
    }
  });
});
