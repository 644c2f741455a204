import type { Language } from '@alma/protocol';

/**
 * Speech synthesis: text in, audio out, with the timings the avatar's mouth needs. One
 * implementation per provider (`builtin` espeak-ng wasm, `openai` /v1/audio/speech), chosen by
 * configuration. The reply pipeline calls `synthesize` once per speakable chunk, in order.
 */
export interface VoiceParams {
  /** The synthesiser's own voice name, e.g. espeak's `es+f3` or an OpenAI voice `alloy`. */
  voice: string;
  /** Words per minute (espeak) or a speed factor the provider understands; engine-specific. */
  rate?: number;
  /** 0–100 (espeak pitch); ignored by providers without it. */
  pitch?: number;
  /**
   * The uploaded sample of a custom voice (SPEC.md VU-8). The builtin engine ignores it (it
   * speaks the derived voice/pitch/rate above, an approximation); a provider that clones voices
   * sends it along (openai.ts with `voiceCloning`).
   */
  sample?: VoiceSample;
}

/** A custom voice's uploaded audio, read on demand (only cloning providers need the bytes). */
export interface VoiceSample {
  /** The custom voice's id: a stable key a provider can cache a cloned voice under. */
  id: string;
  mimeType: string;
  read(): Promise<Uint8Array>;
}

export interface SynthesisRequest {
  text: string;
  language: Language;
  voice: VoiceParams;
  signal: AbortSignal;
  /** The reply's first clause: served before anyone's later clauses where jobs queue (SPEC.md S-10). */
  first?: boolean;
  /**
   * The clause before this one in its reply, when it is not voiced yet: this one's wait for a
   * worker (SPEECH_MAX_WAIT_MS, S-10) counts from when that one is done — it is not needed sooner.
   */
  after?: Promise<unknown>;
}

/** One Oculus viseme at a time offset: `v` is `sil`, `PP`, `FF`, `TH`, `DD`, `kk`, `CH`, `SS`, `nn`, `RR`, `aa`, `E`, `I`, `O`, `U`. */
export interface VisemeKey {
  /** Milliseconds from the start of this chunk's audio. */
  t: number;
  v: string;
  /** Weight 0–1. */
  w: number;
}

export interface WordTiming {
  t: number;
  text: string;
}

export interface SynthesisResult {
  /** Encoded audio for this chunk (playable on its own in a browser). */
  audio: Uint8Array;
  mimeType: string;
  /** Raw PCM of the same audio, so the pipeline can join chunks into one file for the reply. */
  pcm: Int16Array;
  sampleRate: number;
  durationMs: number;
  visemes: VisemeKey[];
  words: WordTiming[];
}

export interface SpeechSynthesizer {
  /** Reported by /health (engines.speech). */
  readonly name: string;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  /**
   * Starts what the synthesiser runs (worker threads) and resolves once it is warm; the server
   * awaits it before it listens (SPEC.md S-12). Without it, the first request starts it.
   */
  start?(): Promise<void>;
  /** Stops what the synthesiser runs (worker threads); called when the app closes. */
  close?(): Promise<void>;
  /** Encodes a whole reply's PCM as one file (the stored `audioUrl`). */
  encodeFile(
    pcm: Int16Array,
    sampleRate: number,
  ): Promise<{ data: Uint8Array; mimeType: string; extension: string }>;
}
