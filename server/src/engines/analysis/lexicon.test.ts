import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compileLexicon, type CompiledLexicon, type LexiconEntry } from './lexicon.ts';
import { ENGLISH_LEXICON } from './lexicon.en.ts';
import { SPANISH_LEXICON } from './lexicon.es.ts';
import { words } from './text.ts';

/** What `match` must give: the first entry, in `words` order, equal to the token or a stem of it. */
const scan = (lexicon: CompiledLexicon, token: string): LexiconEntry | undefined =>
  lexicon.words.find((e) =>
    e.pattern.endsWith('*') ? token.startsWith(e.pattern.slice(0, -1)) : token === e.pattern,
  );

/** Every word of the emotion corpora, and every pattern with its stems' continuations. */
function tokensFor(lexicon: CompiledLexicon): string[] {
  const corpus = ['emotion-train.json', 'emotion-dev.json', 'emotion-heldout.json'].flatMap((file) =>
    words(readFileSync(new URL(file, import.meta.url), 'utf8')),
  );
  const fromPatterns = lexicon.words.flatMap(({ pattern }) => {
    const stem = pattern.replace(/\*$/, '');
    return [stem, `${stem}s`, `${stem}mente`, `${stem}ing`, stem.slice(0, -1), `x${stem}`];
  });
  return [...new Set([...corpus, ...fromPatterns, '', 'a'])];
}

describe('compiled lexicon', () => {
  for (const [language, source] of [
    ['es', SPANISH_LEXICON],
    ['en', ENGLISH_LEXICON],
  ] as const) {
    it(`${language}: match() finds, for every token, the entry a scan of the lexicon finds`, () => {
      const lexicon = compileLexicon(source);
      const tokens = tokensFor(lexicon);
      expect(tokens.length).toBeGreaterThan(1000);
      const found = tokens.filter((token) => scan(lexicon, token) !== undefined);
      expect(found.length).toBeGreaterThan(300);
      for (const token of tokens) expect(lexicon.match(token), token).toBe(scan(lexicon, token));
    });

    it(`${language}: exact() takes the first entry without a stem whose pattern is a candidate`, () => {
      const lexicon = compileLexicon(source);
      const plain = lexicon.words.filter((e) => !e.pattern.endsWith('*'));
      const stem = lexicon.words.find((e) => e.pattern.endsWith('*'))!;
      expect(lexicon.exact([plain[3]!.pattern, plain[1]!.pattern])).toBe(plain[1]);
      expect(lexicon.exact(['zzz-nothing', stem.pattern.slice(0, -1)])).toBeUndefined();
    });
  }
});
