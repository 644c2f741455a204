import type { SpeechSynthesizer, SynthesisRequest, SynthesisResult } from '../engines/speech/types.ts';

/**
 * A deterministic test double of `SpeechSynthesizer` (engines/speech/types.ts), for tests of the
 * reply pipeline that must not depend on the real engines: every word lasts `msPerWord`, the
 * audio is a quiet tone as 16-bit mono WAV at 16 kHz, one viseme per word. `delayMs` makes each
 * synthesis take that long (resolved early when the request's signal aborts, like a real one);
 * `fail` makes chosen chunks throw.
 */
export interface FakeSynthesizerOptions {
  msPerWord?: number;
  delayMs?: number;
  fail?: (text: string) => boolean;
  name?: string;
}

const SAMPLE_RATE = 16_000;

export function wavFile(pcm: Int16Array, sampleRate: number): Uint8Array {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

export function createFakeSynthesizer(options: FakeSynthesizerOptions = {}): SpeechSynthesizer & {
  calls: SynthesisRequest[];
} {
  const msPerWord = options.msPerWord ?? 300;
  const calls: SynthesisRequest[] = [];
  return {
    name: options.name ?? 'fake',
    calls,
    async synthesize(request: SynthesisRequest): Promise<SynthesisResult> {
      calls.push(request);
      if (options.delayMs) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.delayMs);
          request.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
      if (options.fail?.(request.text)) throw new Error(`fake synthesis failure: ${request.text}`);
      const words = request.text.split(/\s+/).filter(Boolean);
      const durationMs = words.length * msPerWord;
      const pcm = new Int16Array(Math.round((durationMs * SAMPLE_RATE) / 1000));
      for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(1000 * Math.sin(i / 8));
      return {
        audio: wavFile(pcm, SAMPLE_RATE),
        mimeType: 'audio/wav',
        pcm,
        sampleRate: SAMPLE_RATE,
        durationMs,
        visemes: words.map((_, i) => ({ t: i * msPerWord, v: i % 2 ? 'aa' : 'PP', w: 1 })),
        words: words.map((text, i) => ({ t: i * msPerWord, text })),
      };
    },
    async encodeFile(pcm: Int16Array, sampleRate: number) {
      return { data: wavFile(pcm, sampleRate), mimeType: 'audio/wav', extension: 'wav' };
    },
  };
}
