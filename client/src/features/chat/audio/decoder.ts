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
  /**
   * Seconds between the context rendering a sample and the speaker playing it: the context's
   * own processing (`baseLatency`) and the device's (`outputLatency`; 10–40 ms on a desktop,
   * more on phones and Bluetooth). Either may be missing (Safari has no `outputLatency`).
   */
  readonly baseLatency?: number;
  readonly outputLatency?: number;
  readonly state: string;
  readonly destination: unknown;
  resume(): Promise<void>;
  decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike>;
  createBufferSource(): AudioSourceLike;
}

/**
 * The context time whose sample is being heard now: `currentTime` is what the context renders,
 * which reaches the ear `baseLatency + outputLatency` later. The mouth follows this time, so it
 * moves with the sound a person hears, not ahead of it (SPEC.md S-8).
 */
export function heardTime(context: AudioContextLike): number {
  const latency = finite(context.baseLatency) + finite(context.outputLatency);
  return Math.max(0, context.currentTime - latency);
}

const finite = (value: number | undefined) =>
  value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;

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
