/**
 * The Web Audio boundary of the speech queue: the few members of `AudioContext`,
 * `AudioBuffer` and `AudioBufferSourceNode` it uses (tests, in jsdom without Web Audio, pass a
 * fake), and the chunk decode.
 *
 * Each MP3 chunk starts with a LAME Info frame (SPEC.md S-8), so the browser's decoder drops the
 * codec delay and padding itself: the decoded buffer is the chunk's PCM, `durationMs` long.
 */

export interface AudioBufferLike {
  duration: number;
}

export interface AudioSourceLike {
  buffer: AudioBufferLike | null;
  onended: (() => void) | null;
  connect(destination: unknown): unknown;
  /** `AudioBufferSourceNode.start`: at `when`, from `offset` (s) into the buffer, for `duration` (s). */
  start(when: number, offset?: number, duration?: number): void;
  stop(when?: number): void;
}

export interface AudioContextLike {
  readonly currentTime: number;
  readonly state: string;
  readonly destination: unknown;
  resume(): Promise<void>;
  decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike>;
  createBufferSource(): AudioSourceLike;
}

/** The chunk decoded; null when the browser cannot decode it (the chunk is then skipped). */
export function decodeChunk(
  context: AudioContextLike,
  audio: ArrayBuffer | Uint8Array,
): Promise<AudioBufferLike | null> {
  return context.decodeAudioData(copyBuffer(audio)).catch(() => null);
}

/** decodeAudioData detaches its argument: it always gets a copy, so the chunk stays readable. */
function copyBuffer(audio: ArrayBuffer | Uint8Array): ArrayBuffer {
  if (audio instanceof ArrayBuffer) return audio.slice(0);
  const copy = new Uint8Array(audio.byteLength);
  copy.set(audio);
  return copy.buffer;
}
