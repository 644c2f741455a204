import { createPacer, type ReplyChunk, type ReplyEngine } from '@alma/server';

/** Splits a reply the way the builtin engine streams it: one word and its spaces per piece. */
export const piecesOf = (text: string): string[] => text.match(/\S+\s*/g) ?? [];

/**
 * A reply engine that always writes `text`, word by word, `delayMs` apart on one timeline (the
 * first word at once, as the builtin engine does): every reply alike, so Alma and a baseline
 * stream the same.
 */
export function scriptedEngine(text: string, delayMs: number): ReplyEngine {
  return {
    name: 'scripted',
    async *stream(request): AsyncIterable<ReplyChunk> {
      const pacer = createPacer(delayMs);
      for (const [index, piece] of piecesOf(text).entries()) {
        if (request.signal.aborted) return;
        await pacer.wait(index, request.signal);
        yield { type: 'text', text: piece };
      }
    },
  };
}

/** The benches' spoken reply: four Spanish sentences, the first clause short (SPEC.md S-1). */
export const SPOKEN_REPLY =
  'Qué bien que me lo cuentes, de verdad. Suena a que ha sido un día intenso, pero también lleno de cosas buenas. ' +
  'A veces lo pequeño es lo que más nos sostiene. ¿Qué parte del día te gustaría recordar mañana?';
