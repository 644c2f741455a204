import type { Language } from '@alma/protocol';

/**
 * Speech to text for voice notes (SPEC.md V-3). One implementation per source: an
 * OpenAI-compatible `/v1/audio/transcriptions`, or the transcript the browser offered (Chrome's
 * SpeechRecognition). A transcriber never invents text: without a source it fails with
 * `transcription_not_configured`.
 */
export interface TranscriptionRequest {
  /** Mono samples in −1…1. */
  pcm: Float32Array;
  sampleRate: number;
  /** The language the user writes in, when known (a hint for the provider). */
  language?: Language | undefined;
  /** What the browser's own recogniser heard, if it offered anything. */
  hint?: string | undefined;
  signal: AbortSignal;
}

export interface Transcription {
  text: string;
  /** Which transcriber produced it (`openai`, `hint`). */
  engine: string;
}

export interface Transcriber {
  /** Reported by /health (engines.transcription). */
  readonly name: string;
  transcribe(request: TranscriptionRequest): Promise<Transcription>;
  /** Releases what it holds (pocketsphinx's worker thread). */
  close?(): Promise<void>;
}
