import { describe, expect, it } from 'vitest';
import { createSpeechChunker, type SpeechChunkerOptions } from './chunker.ts';

/** Feeds `text` in deltas of `size` characters; returns every chunk, the flush's included. */
function chunk(text: string, size = 1, options?: SpeechChunkerOptions): string[] {
  const chunker = createSpeechChunker(options);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...chunker.push(text.slice(i, i + size)));
  out.push(...chunker.flush());
  return out;
}

const trimmed = (chunks: string[]) => chunks.map((c) => c.trim());

describe('speech chunker', () => {
  it('lets the first chunk go at the first clause after three words, later ones at sentence ends', () => {
    const text = 'Claro que sí, me encanta la idea, de verdad. Podemos hablar de eso mañana. ¡Qué bien!';
    expect(trimmed(chunk(text))).toEqual([
      'Claro que sí,',
      'me encanta la idea, de verdad.',
      'Podemos hablar de eso mañana.',
      '¡Qué bien!',
    ]);
  });

  it('emits the first clause as soon as the character after the comma arrives', () => {
    const chunker = createSpeechChunker();
    expect(chunker.push('Well, I think')).toEqual([]); // "Well," is one word: too early
    expect(chunker.push(' so,')).toEqual([]); // undecided until the next character
    expect(chunker.push(' and')).toEqual(['Well, I think so,']);
    expect(chunker.push(' then.')).toEqual([]);
    expect(chunker.flush()).toEqual([' and then.']);
  });

  it('takes any white space after a clause or a sentence as a space: tabs, no-break, ideographic', () => {
    for (const space of ['\t', '\n', '\u00a0', '\u2009', '\u202f', '\u3000', '\ufeff']) {
      const text = `Claro que sí,${space}me encanta.${space}Hasta luego.`;
      expect(chunk(text), JSON.stringify(space)).toEqual([
        'Claro que sí,',
        `${space}me encanta.`,
        `${space}Hasta luego.`,
      ]);
    }
    // Not white space: the comma and the period are inside a word, so nothing is cut there.
    expect(chunk('Claro que sí,\u200bme encanta.\u200bHasta luego.')).toEqual([
      'Claro que sí,\u200bme encanta.\u200bHasta luego.',
    ]);
  });

  it('ends the first chunk at a sentence end when that comes first', () => {
    expect(trimmed(chunk('Hi! How are you, my friend? Fine.'))).toEqual([
      'Hi!',
      'How are you, my friend?',
      'Fine.',
    ]);
  });

  it('keeps a Spanish question or exclamation whole: no clause cut inside ¿…? or ¡…!', () => {
    expect(trimmed(chunk('¿Sabes qué, amiga mía, lo que pienso? Que sí, claro que sí.'))).toEqual([
      '¿Sabes qué, amiga mía, lo que pienso?',
      'Que sí, claro que sí.',
    ]);
    expect(trimmed(chunk('¡Qué alegría tan grande, de verdad! Gracias.'))).toEqual([
      '¡Qué alegría tan grande, de verdad!',
      'Gracias.',
    ]);
  });

  it('does not end sentences at abbreviations, initials or decimals', () => {
    expect(
      trimmed(chunk('Hablé con el Sr. García y la Dra. Pérez. Cuesta 3.5 euros, p. ej. en la tienda. Vale.')),
    ).toEqual([
      'Hablé con el Sr. García y la Dra. Pérez.',
      'Cuesta 3.5 euros, p. ej. en la tienda.',
      'Vale.',
    ]);
    expect(
      trimmed(
        chunk('Mr. Smith met J. K. Rowling in the U.S. last year. Some fruit, e.g. apples, is good.', 7),
      ),
    ).toEqual(['Mr. Smith met J. K. Rowling in the U.S. last year.', 'Some fruit, e.g. apples, is good.']);
  });

  it('ends a sentence at "etc." when a capital follows', () => {
    expect(trimmed(chunk('Compré pan, leche, etc. Luego volví a casa.'))).toEqual([
      'Compré pan, leche,',
      'etc.',
      'Luego volví a casa.',
    ]);
    expect(trimmed(chunk('Trajo frutas etc. y verduras. Fin.'))).toEqual([
      'Trajo frutas etc. y verduras.',
      'Fin.',
    ]);
  });

  it('keeps runs of terminators and closing quotes with their sentence', () => {
    expect(trimmed(chunk('¡¿En serio?!  Vaya... "Increíble." (Sí.) Bien.'))).toEqual([
      '¡¿En serio?!',
      'Vaya...',
      '"Increíble."',
      '(Sí.)',
      'Bien.',
    ]);
  });

  it('flushes the rest at the end, and gives nothing for an empty reply', () => {
    expect(chunk('Sin punto final')).toEqual(['Sin punto final']);
    expect(chunk('')).toEqual([]);
    expect(chunk('   ')).toEqual([]);
  });

  it('gives the text back exactly when the chunks are joined, whatever the deltas', () => {
    const text =
      'Hola, ¿cómo estás? Yo bien: 3,5 horas de sueño. El Dr. Ruiz dice… ¡que duerma más! Ok.\nAdiós';
    const reference = chunk(text, text.length);
    for (const size of [1, 2, 3, 5, 8, 13]) expect(chunk(text, size)).toEqual(reference);
    expect(reference.join('')).toBe(text);
  });

  it('carries a piece with nothing to pronounce into the next chunk, and drops it at the end', () => {
    expect(chunk('Genial. 😊 Nos vemos. 🎉')).toEqual(['Genial.', ' 😊 Nos vemos.']);
  });

  it('cuts at line breaks and cuts run-ons at a clause or a space', () => {
    expect(trimmed(chunk('Lista de cosas\n- pan\n- leche'))).toEqual(['Lista de cosas', '- pan', '- leche']);
    const runOn = Array.from({ length: 40 }, (_, i) => `palabra${i}`).join(' ');
    const chunks = chunk(runOn, 4, { maxChunkChars: 60 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(61);
    expect(chunks.join('')).toBe(runOn);
  });
});
