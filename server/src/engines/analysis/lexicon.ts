import type { Emotion } from '@alma/protocol';

/**
 * The shape of a per-language emotion lexicon. Entries are written compactly as space-separated
 * strings so the word lists stay readable: `word`, `stem*` (prefix match) and an optional weight
 * `word:0.6` (default 1). Everything is folded: lower case, no accents.
 */
export type ScoredEmotion = Exclude<Emotion, 'neutral'>;

export interface Lexicon {
  words: Record<ScoredEmotion, string>;
  /** Multi-word expressions, one per line-ish: "echo de menos:1" — separated by commas. */
  phrases: Record<ScoredEmotion, string>;
  /** Words that flip the meaning of an emotion word up to three words later. */
  negators: string;
  /** Words right after a negator that cancel it: "no paro de llorar" is still crying. */
  negationBreakers: string;
  /** Words that strengthen the emotion word right after them. */
  intensifiers: string;
}

export interface LexiconEntry {
  pattern: string;
  emotion: ScoredEmotion;
  weight: number;
}

export interface CompiledLexicon {
  /** Longest patterns first, so "emocionad*" wins over a shorter overlapping stem. */
  words: LexiconEntry[];
  /**
   * The first of `words` that `token` matches — the entry itself, or a `stem*` the token starts
   * with — found through two maps, not by scanning the whole lexicon (issue 14: the scan was most
   * of the emotion analysis, which runs on every reply).
   */
  match(token: string): LexiconEntry | undefined;
  /** The first of `words` without `*` whose pattern is one of `candidates`. */
  exact(candidates: readonly string[]): LexiconEntry | undefined;
  /** Phrases as token sequences, longest first. */
  phrases: { tokens: string[]; emotion: ScoredEmotion; weight: number }[];
  negators: Set<string>;
  negationBreakers: Set<string>;
  intensifiers: Set<string>;
}

function parseEntry(raw: string): { pattern: string; weight: number } {
  const [pattern = '', weight] = raw.split(':');
  return { pattern, weight: weight === undefined ? 1 : Number(weight) };
}

export function compileLexicon(lexicon: Lexicon): CompiledLexicon {
  const wordEntries: LexiconEntry[] = [];
  const phraseEntries: CompiledLexicon['phrases'] = [];
  for (const emotion of Object.keys(lexicon.words) as ScoredEmotion[]) {
    for (const raw of lexicon.words[emotion].split(/\s+/).filter(Boolean)) {
      wordEntries.push({ ...parseEntry(raw), emotion });
    }
    for (const raw of lexicon.phrases[emotion]
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const { pattern, weight } = parseEntry(raw);
      phraseEntries.push({ tokens: pattern.split(/\s+/), emotion, weight });
    }
  }
  const set = (list: string) => new Set(list.split(/\s+/).filter(Boolean));
  const words = wordEntries.sort((a, b) => b.pattern.length - a.pattern.length);
  // Each pattern's first place in `words`: the earliest place among the matches is `find`'s.
  const exactAt = new Map<string, number>();
  const stemAt = new Map<string, number>();
  words.forEach(({ pattern }, at) => {
    const [map, key] = pattern.endsWith('*') ? [stemAt, pattern.slice(0, -1)] : [exactAt, pattern];
    if (!map.has(key)) map.set(key, at);
  });
  // The lengths stems come in, so a token is cut only where a stem could end.
  const stemLengths = [...new Set([...stemAt.keys()].map((stem) => stem.length))].sort((a, b) => a - b);
  // Allocation-free lookups (issue 14: every reply and every user message is analysed several
  // times, and the analysis was a third of what the event loop allocated under load).
  const earlier = (best: number | undefined, at: number | undefined) =>
    at !== undefined && (best === undefined || at < best) ? at : best;
  return {
    words,
    match(token) {
      let best = exactAt.get(token);
      for (const length of stemLengths) {
        if (length > token.length) break;
        best = earlier(best, stemAt.get(token.slice(0, length)));
      }
      return best === undefined ? undefined : words[best];
    },
    exact(candidates) {
      let best: number | undefined;
      for (const candidate of candidates) best = earlier(best, exactAt.get(candidate));
      return best === undefined ? undefined : words[best];
    },
    phrases: phraseEntries.sort((a, b) => b.tokens.length - a.tokens.length),
    negators: set(lexicon.negators),
    negationBreakers: set(lexicon.negationBreakers),
    intensifiers: set(lexicon.intensifiers),
  };
}
