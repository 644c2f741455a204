/**
 * Splits a reply's text, as it streams in, into chunks worth speaking (ARCHITECTURE §3 step 3).
 * The first chunk leaves early, at the first clause boundary after a few words, so the avatar
 * starts talking while the engine is still writing; later chunks end at sentence ends. Pure and
 * deterministic: the same deltas give the same chunks, however the text was cut into deltas.
 *
 * A boundary is only decided once the character after it has arrived ("3." may become "3.5",
 * "Sr." is followed by a name), so each chunk is emitted one character late — or at `flush`.
 *
 * Chunks are exact slices of the text: joined, they give it back (a cut falls after the
 * punctuation, so the space after it starts the next chunk). A piece with nothing to pronounce
 * (only punctuation, emoji) joins the next chunk; left over at `flush`, it is dropped.
 */
export interface SpeechChunker {
  /** Feeds a delta; returns the chunks it completed, in order. */
  push(delta: string): string[];
  /** The end of the reply: returns whatever is left as the last chunk(s). */
  flush(): string[];
}

export interface SpeechChunkerOptions {
  /** Words before the first clause boundary may end the first chunk. */
  firstClauseMinWords?: number;
  /** A run-on without sentence ends is cut (at a clause, else a space) after this many characters. */
  maxChunkChars?: number;
}

const DEFAULT_FIRST_CLAUSE_MIN_WORDS = 3;
const DEFAULT_MAX_CHUNK_CHARS = 280;

// Character sets, tested one character at a time as the text streams in: not RegExps, whose
// `test` allocates on every call (issue 14: 65 KB per reply, as the held text is rescanned).
const SENTENCE_END = '.!?…';
const SPEAKABLE = /[\p{L}\p{N}]/u;
const CLAUSE_END = ',;:';
/** Closers that belong to the sentence before the boundary: quotes, brackets, Spanish ?! pairs. */
const CLOSER = `"'”’»)]}*_`;
/** What `\s` matches in a RegExp (white space, line terminators), by UTF-16 code unit. */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Words a period follows without ending the sentence (lower case, without their dots). */
const ABBREVIATIONS = new Set([
  // Spanish
  'sr',
  'sra',
  'srta',
  'sres',
  'dr',
  'dra',
  'dres',
  'ud',
  'uds',
  'vd',
  'vds',
  'lic',
  'ing',
  'prof',
  'profa',
  'd',
  'dña',
  'p',
  'ej',
  'pág',
  'págs',
  'núm',
  'nº',
  'aprox',
  'etc',
  'av',
  'avda',
  'c',
  'cía',
  'dto',
  'tel',
  'vol',
  'cap',
  // English
  'mr',
  'mrs',
  'ms',
  'jr',
  'sr',
  'st',
  'mt',
  'vs',
  'etc',
  'approx',
  'dept',
  'fig',
  'inc',
  'ltd',
  'co',
  'corp',
  'e.g',
  'i.e',
  'a.m',
  'p.m',
  'u.s',
  'u.k',
]);
/** Abbreviations that may also end a sentence: a capital after them starts a new one. */
const SENTENCE_FINAL_ABBREVIATIONS = new Set(['etc', 'aprox', 'approx', 'inc', 'ltd', 'corp', 'co']);

export function createSpeechChunker(options: SpeechChunkerOptions = {}): SpeechChunker {
  const firstClauseMinWords = options.firstClauseMinWords ?? DEFAULT_FIRST_CLAUSE_MIN_WORDS;
  const maxChunkChars = options.maxChunkChars ?? DEFAULT_MAX_CHUNK_CHARS;
  let buffer = '';
  /** Where the next boundary search starts (everything before is known not to be one). */
  let scanned = 0;
  let emitted = 0;

  /** Text cut off with nothing to pronounce (punctuation, emoji): it leads the next chunk. */
  let carry = '';

  const take = (end: number, out: string[]) => {
    const piece = buffer.slice(0, end);
    buffer = buffer.slice(end);
    scanned = 0;
    if (SPEAKABLE.test(piece)) {
      out.push(carry + piece);
      carry = '';
      emitted++;
    } else {
      carry += piece;
    }
  };

  function drain(final: boolean): string[] {
    const out: string[] = [];
    for (;;) {
      const end = nextBoundary(final);
      if (end === null) break;
      take(end, out);
    }
    if (final) take(buffer.length, out);
    return out;
  }

  /** The end (exclusive) of the next chunk in the buffer, or null while undecided. */
  function nextBoundary(final: boolean): number | null {
    const first = emitted === 0;
    let openQuestion = 0;
    let lastClause = -1;
    let lastSpace = -1;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i]!;
      if (ch === '¿' || ch === '¡') openQuestion++;
      if ((ch === '?' || ch === '!') && openQuestion > 0) openQuestion--;
      if (i < scanned) {
        if (CLAUSE_END.includes(ch)) lastClause = i + 1;
        if (isSpace(buffer.charCodeAt(i))) lastSpace = i;
        continue;
      }
      const rest = i + 1;
      if (ch === '\n' && SPEAKABLE.test(buffer.slice(0, i))) return rest;
      if (SENTENCE_END.includes(ch)) {
        let end = rest;
        while (end < buffer.length && (SENTENCE_END.includes(buffer[end]!) || CLOSER.includes(buffer[end]!)))
          end++;
        if (end === buffer.length && !final) return hold(i);
        if (end === buffer.length || isSpace(buffer.charCodeAt(end))) {
          const decided = sentenceEnds(buffer, i, end, final);
          if (decided === null) return hold(i);
          if (decided) return end;
        }
        i = end - 1;
        continue;
      }
      if (CLAUSE_END.includes(ch)) {
        if (rest === buffer.length && !final) return hold(i);
        const followedBySpace = rest < buffer.length && isSpace(buffer.charCodeAt(rest));
        if (followedBySpace) {
          lastClause = rest;
          // Inside ¿…? or ¡…! the question or exclamation is said whole.
          if (first && openQuestion === 0 && wordCount(buffer.slice(0, i)) >= firstClauseMinWords)
            return rest;
        }
      }
      if (isSpace(buffer.charCodeAt(i))) lastSpace = i;
      if (i + 1 >= maxChunkChars) {
        if (lastClause > 0) return lastClause;
        if (lastSpace > 0) return lastSpace;
      }
    }
    scanned = buffer.length;
    return null;
  }

  /** Undecided at `i`: rescan from there when more text arrives. */
  function hold(i: number): null {
    scanned = i;
    return null;
  }

  return {
    push(delta) {
      buffer += delta;
      return drain(false);
    },
    flush() {
      return drain(true);
    },
  };
}

/**
 * Whether the terminator at `at` (its run ending at `end`, followed by a space or the end) ends the
 * sentence; null when the answer depends on text not yet received.
 */
function sentenceEnds(text: string, at: number, end: number, final: boolean): boolean | null {
  if (text[at] !== '.' || end - at > 1) return true;
  const before = text.slice(0, at);
  const word = /(\S+)$/.exec(before)?.[1]?.toLowerCase() ?? '';
  const bare = word.replace(/^[^\p{L}\p{N}]+/u, '');
  if (!isAbbreviation(bare)) return true;
  if (!SENTENCE_FINAL_ABBREVIATIONS.has(bare)) return false;
  // "etc." ends the sentence when a capital (or ¿¡) follows it.
  const next = /\S/.exec(text.slice(end));
  if (!next) return final ? true : null;
  return /[\p{Lu}¿¡]/u.test(next[0]);
}

function isAbbreviation(word: string): boolean {
  if (ABBREVIATIONS.has(word)) return true;
  // Initials and dotted abbreviations: "J.", "e.g", "U.S".
  return /^\p{L}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word);
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
