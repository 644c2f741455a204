import { normaliseSentence, splitSentences } from './memory.ts';
import type { Pool } from './phrases.ts';

/**
 * Deterministic variety: which variant is said depends on a hash of the message and the turn,
 * never on randomness or the clock, so a replayed session gives the same replies. A variant is
 * skipped when any of its sentences was already said in the session.
 */

/** FNV-1a, 32-bit: tiny, stable across platforms and good enough to spread choices. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface FillValues {
  name: string | null;
  /** Whether optional `{, name}` slots are filled this turn. */
  useName: boolean;
  topic: string | null;
  thing: string | null;
}

/** The template with its placeholders filled, or null when it needs a value we lack. */
export function fill(template: string, values: FillValues): string | null {
  if (template.includes('{name}') && !values.name) return null;
  if (template.includes('{topic}') && !values.topic) return null;
  if (template.includes('{thing}') && !values.thing) return null;
  const text = template
    .replaceAll('{, name}', values.useName && values.name ? `, ${values.name}` : '')
    .replaceAll('{name}', values.name ?? '')
    .replaceAll('{topic}', values.topic ?? '')
    .replaceAll('{thing}', values.thing ?? '')
    // Spanish contractions a topic can create: "lo de el examen" → "lo del examen".
    .replace(/\bde el\b/g, 'del')
    .replace(/\ba el\b/g, 'al');
  // A topic can open the sentence: "tu perro... suena a capítulo interesante".
  return text.replace(
    /^([¡¿"«]?)(\p{Ll})/u,
    (_, mark: string, letter: string) => mark + letter.toUpperCase(),
  );
}

export class SentencePicker {
  private readonly said: Set<string>;

  constructor(
    alreadySaid: ReadonlySet<string>,
    private readonly seed: number,
    private readonly values: FillValues,
  ) {
    this.said = new Set(alreadySaid);
  }

  /**
   * The first fitting, unsaid variant of the first pool that has one; each pool is entered at a
   * seed-chosen offset so consecutive turns wander through the variants. Null when all are used.
   */
  pick(pools: readonly Pool[], slot: string, overrides: Partial<FillValues> = {}): string | null {
    const values = { ...this.values, ...overrides };
    const start = hash(`${this.seed}:${slot}`);
    for (const pool of pools) {
      for (let k = 0; k < pool.length; k++) {
        const template = pool[(start + k) % pool.length];
        const text = template === undefined ? null : fill(template, values);
        if (text === null) continue;
        const sentences = splitSentences(text).map(normaliseSentence);
        if (sentences.some((s) => this.said.has(s))) continue;
        sentences.forEach((s) => this.said.add(s));
        return text;
      }
    }
    return null;
  }

  /** Like `pick`, but a reply must say something: as a last resort a variant is repeated. */
  pickOrRepeat(pools: readonly Pool[], slot: string, overrides: Partial<FillValues> = {}): string {
    const fresh = this.pick(pools, slot, overrides);
    if (fresh !== null) return fresh;
    const values = { ...this.values, ...overrides };
    for (const pool of pools) {
      for (const template of pool) {
        const text = fill(template, values);
        if (text !== null) return text;
      }
    }
    return '…';
  }
}
