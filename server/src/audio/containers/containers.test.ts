import { describe, expect, it } from 'vitest';
import { AudioDecodeError } from '../errors.ts';
import { toInt16 } from '../pcm.ts';
import { checkWebm } from './ebml.ts';
import { checkOgg, oggPageCrc } from './ogg.ts';
import { encodeWav, parseWav, readWav } from './riff.ts';

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof AudioDecodeError ? `${error.code}: ${error.message}` : String(error);
  }
  return 'accepted';
};

describe('RIFF/WAVE', () => {
  const wav = encodeWav(
    Float32Array.from({ length: 1600 }, (_, i) => Math.sin(i / 5) / 2),
    16_000,
  );

  it('reads our own WAV back strictly, to the sample', () => {
    const info = parseWav(wav, { strict: true });
    expect(info).toMatchObject({
      format: 1,
      channels: 1,
      sampleRate: 16_000,
      bitsPerSample: 16,
      dataLength: 3200,
    });
    expect(readWav(wav, { strict: true }).pcm.length).toBe(1600);
  });

  it('VU-2 strict: bytes after the RIFF end, a chunk past the end, stray bytes are damage, with where', () => {
    expect(failure(() => parseWav(new Uint8Array([...wav, 0, 0, 0]), { strict: true }))).toBe(
      'invalid_audio: 3 bytes after the end of the RIFF data',
    );
    expect(failure(() => parseWav(wav.subarray(0, 1000), { strict: true }))).toMatch(
      /^invalid_audio: the RIFF header says 3244 bytes, the file has 1000/,
    );
    // Not an encoding we read: unsupported rather than damaged.
    const adpcm = wav.slice();
    new DataView(adpcm.buffer).setUint16(20, 2, true);
    expect(failure(() => parseWav(adpcm, { strict: true }))).toMatch(/^unsupported_audio: WAV encoding 2/);
  });

  it("lenient: a provider's streamed WAV with placeholder sizes runs to the end of the file", () => {
    const streamed = wav.slice();
    const view = new DataView(streamed.buffer);
    view.setUint32(4, 0xffffffff, true);
    view.setUint32(40, 0xffffffff, true);
    expect(failure(() => parseWav(streamed, { strict: true }))).toMatch(/^invalid_audio/);
    expect(readWav(streamed, { strict: false }).pcm.length).toBe(1600);
  });

  it('mixes a stereo float WAV down to mono', () => {
    const frames = 4;
    const bytes = new Uint8Array(44 + frames * 8);
    const view = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode('RIFF'), 0);
    view.setUint32(4, bytes.length - 8, true);
    bytes.set(new TextEncoder().encode('WAVEfmt '), 8);
    view.setUint32(16, 16, true);
    view.setUint16(20, 3, true);
    view.setUint16(22, 2, true);
    view.setUint32(24, 16_000, true);
    view.setUint32(28, 16_000 * 8, true);
    view.setUint16(32, 8, true);
    view.setUint16(34, 32, true);
    bytes.set(new TextEncoder().encode('data'), 36);
    view.setUint32(40, frames * 8, true);
    [0.5, 0.5, -0.5, 0.5, 1, 1, -1, -1].forEach((v, i) => view.setFloat32(44 + i * 4, v, true));
    const { pcm, sampleRate } = readWav(bytes, { strict: true });
    expect(sampleRate).toBe(16_000);
    expect(Array.from(toInt16(pcm))).toEqual([16384, 0, 32767, -32768]);
  });
});

describe('Ogg pages', () => {
  it('computes the Ogg CRC-32 (CRC-32/POSIX without its final inversion), its own field counted as 0', () => {
    // CRC-32/POSIX of "123456789" is 0x765E7680; Ogg leaves out the final XOR with 0xFFFFFFFF.
    expect(oggPageCrc(new TextEncoder().encode('123456789'))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
    const page = new Uint8Array(28).fill(7);
    const crc = oggPageCrc(page);
    page.set([1, 2, 3, 4], 22);
    expect(oggPageCrc(page)).toBe(crc);
  });

  it('refuses what is not a page stream', () => {
    expect(failure(() => checkOgg(new TextEncoder().encode('OggS'.padEnd(40, 'x'))))).toMatch(
      /^invalid_audio: page 0: Ogg version/,
    );
    expect(failure(() => checkOgg(new Uint8Array(10)))).toBe('invalid_audio: 10 stray bytes after page 0');
  });
});

describe('EBML', () => {
  it('refuses bytes that are no element, and an element that declares more than the file holds', () => {
    expect(failure(() => checkWebm(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x80, 0, 0, 0])))).toMatch(
      /^invalid_audio: no EBML element at byte 5/,
    );
    expect(failure(() => checkWebm(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x88, 1, 2, 3])))).toMatch(
      /^invalid_audio: element 0x1A45DFA3 at byte 0 declares 13 bytes, 8 are left/,
    );
  });
});
