import { describe, expect, it } from 'vitest';
import { decodeChunk, type AudioBufferLike, type AudioContextLike } from './decoder.ts';

/** jsdom has no Web Audio: a context whose decodeAudioData records what it was handed. */
function contextDecoding(result: (data: ArrayBuffer) => Promise<AudioBufferLike>) {
  const seen: ArrayBuffer[] = [];
  const context = {
    decodeAudioData: (data: ArrayBuffer) => {
      seen.push(data);
      return result(data);
    },
  } as unknown as AudioContextLike;
  return { context, seen };
}

describe('decodeChunk', () => {
  it('hands decodeAudioData a copy, so the chunk stays readable', async () => {
    const { context, seen } = contextDecoding(() => Promise.resolve({ duration: 1 }));
    const audio = new Uint8Array([7, 8, 9]);
    await expect(decodeChunk(context, audio)).resolves.toEqual({ duration: 1 });
    const buffer = new ArrayBuffer(2);
    await decodeChunk(context, buffer);
    expect(seen[0]).not.toBe(audio.buffer);
    expect(Array.from(new Uint8Array(seen[0] ?? new ArrayBuffer(0)))).toEqual([7, 8, 9]);
    expect(seen[1]).not.toBe(buffer);
  });

  it('answers null for audio the browser cannot decode', async () => {
    const { context } = contextDecoding(() => Promise.reject(new DOMException('bad', 'EncodingError')));
    await expect(decodeChunk(context, new Uint8Array([1]))).resolves.toBeNull();
  });
});
