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
}

const PACKAGE: string = '@echogarden/espeak-ng-emscripten';

/** Loads the wasm module (100–240 ms) and creates one worker. */
export async function createEspeakWorker(): Promise<ESpeakNGWorker> {
  const { default: init } = (await import(PACKAGE)) as { default: () => Promise<ESpeakModule> };
  const module = await init();
  return new module.eSpeakNGWorker();
}
