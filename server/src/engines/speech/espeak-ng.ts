/**
 * `@echogarden/espeak-ng-emscripten`, typed: the package ships no types, so the parts we use are
 * declared here and the module is loaded through a non-literal import (TypeScript leaves it
 * untyped in every tsconfig that reaches this file — the server's and the tests'; esbuild
 * leaves it external). Measured behaviour is in ENGINES.md "Speech synthesis".
 */
export interface ESpeakEvent {
  type: 'word' | 'sentence' | 'mark' | 'play' | 'end' | 'msg_terminated' | 'phoneme' | 'samplerate';
  /** 1-based offset of the event's text in the input, in code points. */
  text_position: number;
  /** For `word`: the word's length in code points. */
  word_length: number;
  /** Milliseconds from the start of this `synthesize` call's audio. */
  audio_position: number;
  /** `phoneme`: the IPA phoneme ('' is a pause); `word`/`sentence`: a running number. */
  id: string | number | null | undefined;
}

export interface ESpeakVoice {
  name: string;
  identifier: string;
  languages: { priority: number; name: string }[];
}

export interface ESpeakNGWorker {
  /** Returns espeak's status code (0 = ok; 2 = no such voice). */
  set_voice(name: string): number;
  set_rate(wordsPerMinute: number): void;
  set_pitch(pitch: number): void;
  /**
   * Runs synchronously; `callback` receives 22,050 Hz mono samples (a copy) and the events of
   * each block. Returning a truthy value stops synthesis.
   */
  synthesize(text: string, callback: (samples: Int16Array, events: ESpeakEvent[]) => unknown): void;
  list_voices(): ESpeakVoice[];
}

interface ESpeakModule {
  eSpeakNGWorker: new () => ESpeakNGWorker;
  /** The wasm memory, as bytes (the module replaces the view when memory grows). */
  HEAPU8: Uint8Array;
}

const PACKAGE: string = '@echogarden/espeak-ng-emscripten';

async function loadModule(): Promise<ESpeakModule> {
  const { default: init } = (await import(PACKAGE)) as { default: () => Promise<ESpeakModule> };
  return init();
}

/** Loads the wasm module (100–240 ms) and creates one worker. */
export async function createEspeakWorker(): Promise<ESpeakNGWorker> {
  return newWorker(await loadModule());
}

/**
 * espeak-ng seeds its random generator (the voice's noise and flutter) from the clock when it
 * initialises, in the worker's constructor: two instances made a millisecond apart give the same
 * clause different samples. Made under a fixed clock, every instance starts from the same seed.
 * The constructor is synchronous, so no other code sees the fixed `Date.now`.
 */
const SEED_CLOCK_MS = Date.UTC(2024, 0, 1);
function newWorker(module: ESpeakModule): ESpeakNGWorker {
  const now = Date.now;
  Date.now = () => SEED_CLOCK_MS;
  try {
    return new module.eSpeakNGWorker();
  } finally {
    Date.now = now;
  }
}

/**
 * espeak-ng carries state from one `synthesize` call to the next — the pitch flutter's phase, the
 * wave generator's cycle, its noise generator — so the same clause comes out with phonemes ±1–5 ms
 * apart depending on what that instance spoke before (measured: "Lucía." after two other clauses
 * puts a phoneme at 315 ms instead of 314). A reply's clauses spoken by different instances
 * (synthesis-pool.ts) would then depend on how the pool happened to share them out.
 *
 * So every clause starts from one state, the same in every instance (`newWorker`'s fixed seed):
 * after warm-up the module's memory (the part in use, ~1.2 MB) is copied, and written back before
 * each clause (0.1–0.4 ms) with the clause's voice already chosen (`restoreVoice`). The binding's
 * JS side must agree with that memory: its string buffer is allocated (at STRING_BUFFER_BYTES)
 * before the copy, and a longer text is refused (`fits`) rather than let the binding allocate
 * outside it.
 */
export interface PristineEspeak {
  worker: ESpeakNGWorker;
  /** Whether `text` fits the binding's string buffer (UTF-8, with the voice name). */
  fits: (text: string) => boolean;
  /**
   * Puts the memory back as it was after warm-up and then `setUp` (choosing a voice, its rate and
   * its pitch), keyed by `key`. The first time a key is asked for, the warm-up's copy is written
   * back, `setUp` runs and the pages it changed are copied; afterwards the warm-up's copy and those
   * pages are written back and `setUp` does not run: a voice's set-up (espeak reads its voice
   * file and dictionary, 0.3–2 ms) is paid once, not per clause. The same key starts from the same
   * memory every time, in every instance (S-11). At most VOICE_SET_UPS are kept, the least
   * recently used dropped first. A `setUp` that throws keeps nothing.
   */
  restoreVoice: (key: string, setUp: () => void) => void;
}

/** The binding's string buffer: a speech chunk is ~300 characters (chunker.ts), a preview less. */
const STRING_BUFFER_BYTES = 64 * 1024;
const PAGE = 64 * 1024;
/**
 * Voice set-ups kept per instance (`restoreVoice`): the 25 system voices and then some. A set-up
 * changes 30–110 KB of espeak's memory (measured on four system voices), and only those pages
 * are kept, in VOICE_PAGE pieces.
 */
export const VOICE_SET_UPS = 64;
const VOICE_PAGE = 4 * 1024;
const WARM_UP: [voice: string, text: string][] = [
  ['en-us+f3', 'Hello! How are you today?'],
  ['es+f3', '¡Hola! ¿Qué tal estás hoy?'],
];

export async function createPristineEspeak(): Promise<PristineEspeak> {
  const module = await loadModule();
  const worker = newWorker(module);
  // A name longer than the buffer makes the binding grow its buffer at its next call (no voice has it).
  worker.set_voice('x'.repeat(STRING_BUFFER_BYTES));
  for (const [voice, text] of WARM_UP) {
    worker.set_voice(voice);
    worker.synthesize(text, () => false);
  }
  const pristine = module.HEAPU8.slice(0, usedBytes(module.HEAPU8));
  /** Everything past this may have been written since the last write-back (the heap's top). */
  let dirtyEnd = pristine.length;
  /** Writes the warm-up's copy back, then a voice's pages; every page written past them is cleared. */
  const writeBack = (voice?: VoicePages) => {
    const heap = module.HEAPU8;
    // The heap grows upward from its top: pages written past the copy are cleared too.
    dirtyEnd = topFrom(heap, dirtyEnd);
    heap.set(pristine, 0);
    if (dirtyEnd > pristine.length) heap.fill(0, pristine.length, Math.min(dirtyEnd, heap.length));
    dirtyEnd = pristine.length;
    if (!voice) return;
    for (const [at, bytes] of voice.changed) heap.set(bytes, at);
    dirtyEnd = voice.end;
  };
  /** The pages a voice's set-up changed, against the warm-up's copy (or zero past it). */
  const changedPages = (): VoicePages => {
    const heap = module.HEAPU8;
    const end = topFrom(heap, dirtyEnd);
    const changed: [number, Uint8Array][] = [];
    for (let at = 0; at < end; at += VOICE_PAGE) {
      const now = heap.subarray(at, at + VOICE_PAGE);
      const was =
        at < pristine.length ? pristine.subarray(at, at + VOICE_PAGE) : ZERO_PAGE.subarray(0, now.length);
      if (Buffer.compare(now, was) !== 0) changed.push([at, now.slice()]);
    }
    return { changed, end };
  };
  const voices = new Map<string, VoicePages>();
  return {
    worker,
    fits: (text) => Buffer.byteLength(text) + 256 < STRING_BUFFER_BYTES,
    restoreVoice(key, setUp) {
      let voice = voices.get(key);
      if (voice) {
        voices.delete(key); // most recently used last
      } else {
        writeBack();
        setUp();
        voice = changedPages();
        if (voices.size >= VOICE_SET_UPS) voices.delete(voices.keys().next().value!);
      }
      voices.set(key, voice);
      // Written back the first time too: the clause starts from exactly the memory kept.
      writeBack(voice);
    },
  };
}

/** What a voice's set-up wrote: the pages it changed, and the heap's top after it. */
interface VoicePages {
  changed: [at: number, bytes: Uint8Array][];
  end: number;
}

/** The heap's top, from `from` up: the first all-zero page (the heap grows upward). */
function topFrom(heap: Uint8Array, from: number): number {
  let end = from;
  while (end < heap.length && !isZero(heap, end, PAGE)) end += PAGE;
  return end;
}

/** Bytes up to the last non-zero page (memory past the heap's top is all zero). */
function usedBytes(heap: Uint8Array): number {
  let end = heap.length - (heap.length % PAGE);
  while (end > 0 && isZero(heap, end - PAGE, PAGE)) end -= PAGE;
  return Math.min(heap.length, end + PAGE);
}

const ZERO_PAGE = new Uint8Array(PAGE);
/** Compared natively (memcmp): a page scanned in JS was most of what `restore()` cost. */
function isZero(heap: Uint8Array, from: number, length: number): boolean {
  const bytes = Math.min(length, heap.length - from);
  return Buffer.compare(heap.subarray(from, from + bytes), ZERO_PAGE.subarray(0, bytes)) === 0;
}
